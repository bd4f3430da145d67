import { z } from "zod";
import { emailQualityField } from "@/lib/schemas/email-quality";
import { segmentQuery } from "@/lib/segments/schema";

/** `?location=USA&region=CA,NY&...&emailQuality=valid`: the segment endpoint's query. */
export const segmentCountsQuery = z.intersection(segmentQuery, z.object({ emailQuality: emailQualityField }));
