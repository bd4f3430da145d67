import type { StatusMix } from "@/lib/schemas/category";

// The freshness line shown on category cards and the category page (docs/product-rules.md,
// "Freshness"). Dates in UTC, so the server's and the browser's renders agree.
const DAY = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** "88% valid, 9% accept-all, 3% unknown": the status mix of a country's sellable leads. */
export function statusMixText(mix: StatusMix): string {
  const total = mix.valid + mix.acceptAll + mix.unknown;
  const share = (part: number) => (total > 0 ? Math.round((part * 100) / total) : 0);
  return `${share(mix.valid)}% valid, ${share(mix.acceptAll)}% accept-all, ${share(mix.unknown)}% unknown`;
}

/** Every country's mix added up (the admin's view of a category). */
export function allCountries(byLocation: Record<string, StatusMix>): StatusMix {
  const mixes = Object.values(byLocation);
  return {
    valid: mixes.reduce((sum, mix) => sum + mix.valid, 0),
    acceptAll: mixes.reduce((sum, mix) => sum + mix.acceptAll, 0),
    unknown: mixes.reduce((sum, mix) => sum + mix.unknown, 0),
  };
}

export function freshnessText(percent: number, updatedAt: string | null): string {
  const verified = `${percent}% verified in the last 30 days`;
  return updatedAt ? `${verified} · Updated ${DAY.format(new Date(updatedAt))}` : verified;
}
