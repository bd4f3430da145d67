import { z } from "zod";
import type { PackageId } from "@/lib/packages";
import { emailQualityField } from "@/lib/schemas/email-quality";
import { segmentQuery } from "@/lib/segments/schema";

// "Exclude contacts I already have" (docs/product-rules.md, "Exclusion lists"): the upload's
// answer, and which packages a category's country and segment still fill without the list.

export const listIdParams = z.object({ id: z.uuid("Invalid list id") });

/** `?categoryId=...&location=USA&region=CA,NY&...`: the segment endpoint's query and the category. */
export const listAvailabilityQuery = z.intersection(
  z.object({ categoryId: z.uuid("Invalid category id"), emailQuality: emailQualityField }),
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

/**
 * Per package, whether the category's sellable leads in the country (and segment) still fill it
 * once the list's contacts are left out. How many the list matches is told only after payment.
 */
export type ListAvailability = {
  packages: Record<PackageId, { leadCount: number; available: boolean }>;
};
