import { z } from "zod";
import type { EmailQuality } from "@/lib/email-quality";
import { emailQualityField } from "@/lib/schemas/email-quality";
import { segmentFromSearchParams, segmentQuery, type SegmentQuery } from "@/lib/segments/schema";

/** `?location=USA&region=CA,NY&...&emailQuality=valid`: the segment endpoint's query. */
export const segmentCountsQuery = z.intersection(segmentQuery, z.object({ emailQuality: emailQualityField }));

/**
 * A category page's query (lib/segments/schema.ts's segmentFromSearchParams) with its email quality,
 * given once; null when a value is unknown.
 */
export function segmentPageQuery(
  params: Record<string, string | string[] | undefined>,
): (SegmentQuery & { emailQuality: EmailQuality }) | null {
  const parsed = segmentFromSearchParams(params);
  const quality = emailQualityField.safeParse(params.emailQuality);
  return parsed && quality.success ? { ...parsed, emailQuality: quality.data } : null;
}
