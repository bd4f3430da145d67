import { z } from "zod";
import { DEFAULT_EMAIL_QUALITY, EMAIL_QUALITIES } from "@/lib/email-quality";

/** `emailQuality` of the create body and the segment query: any (the default), deliverable or valid. */
export const emailQualityField = z
  .enum(EMAIL_QUALITIES, `emailQuality must be one of ${EMAIL_QUALITIES.join(", ")}`)
  .default(DEFAULT_EMAIL_QUALITY);
