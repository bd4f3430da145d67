// Which email statuses an order accepts (docs/product-rules.md, "Email quality"). Shared by the
// browser (the category page's choice) and the server (counts, allocation, receipts).
export const EMAIL_QUALITIES = ["any", "deliverable", "valid"] as const;
export type EmailQuality = (typeof EMAIL_QUALITIES)[number];

/** Every sellable status: what an order without a choice accepts. */
export const DEFAULT_EMAIL_QUALITY: EmailQuality = "any";

/** The sellable email statuses each choice accepts (an invalid lead is never sellable). */
export const EMAIL_QUALITY_STATUSES: Record<EmailQuality, readonly ("valid" | "accept_all" | "unknown")[]> = {
  any: ["valid", "accept_all", "unknown"],
  deliverable: ["valid", "accept_all"],
  valid: ["valid"],
};

export const EMAIL_QUALITY_LABELS: Record<EmailQuality, string> = {
  any: "Any status (valid, accept-all, unknown)",
  deliverable: "Deliverable (valid and accept-all)",
  valid: "Valid only",
};

/** A filter query's `emailQuality=` part ("" for the default), after the segment's (`filters`). */
export function withEmailQuality(filters: string, quality: EmailQuality = DEFAULT_EMAIL_QUALITY): string {
  if (quality === DEFAULT_EMAIL_QUALITY) return filters;
  return filters ? `${filters}&emailQuality=${quality}` : `emailQuality=${quality}`;
}
