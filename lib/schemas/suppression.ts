import { z } from "zod";
import type { PackageId } from "@/lib/packages";
import { segmentQuery } from "@/lib/segments/schema";

// "Exclude contacts I already have" (docs/product-rules.md, "Exclusion lists"): the upload's
// answer, and what a list removes from a category's country and segment.

export const listIdParams = z.object({ id: z.uuid("Invalid list id") });

/** `?categoryId=...&location=USA&region=CA,NY&...`: the segment endpoint's query and the category. */
export const listAvailabilityQuery = z.intersection(
  z.object({ categoryId: z.uuid("Invalid category id") }),
  segmentQuery,
);

export type SuppressionListAnswer = {
  success: true;
  suppressionListId: string;
  /** Distinct entries kept: email hashes (from addresses or given) and domains. */
  entries: number;
  emails: number;
  domains: number;
  hashes: number;
  /** Filled cells of the chosen columns that held none of them (a header aside). */
  ignored: number;
  expiresAt: string;
};

export type ListAvailability = {
  /** The category's sellable leads in the country (and segment). */
  count: number;
  /** How many of them the list matches, by email hash or domain. */
  removed: number;
  remaining: number;
  packages: Record<PackageId, { leadCount: number; available: boolean }>;
};
