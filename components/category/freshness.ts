import type { PhoneScreening, SourceLeads, StatusMix } from "@/lib/schemas/category";

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
  const [valid, acceptAll, unknown] = wholePercents([mix.valid, mix.acceptAll, mix.unknown]);
  return `${valid}% valid, ${acceptAll}% accept-all, ${unknown}% unknown`;
}

/** "Company websites 60%, Partner: Acme Data Ltd 40%": where the sellable leads came from. */
export function sourceMixText(mix: SourceLeads[]): string {
  const percents = wholePercents(mix.map(({ leads }) => leads));
  return mix.map(({ source }, index) => `${source} ${percents[index]}%`).join(", ");
}

/**
 * Whole percents that add up to 100 (largest remainders get the rounding), so that a mix never
 * reads as 99% or 101%. All zero for nothing.
 */
function wholePercents(parts: number[]): number[] {
  const total = parts.reduce((sum, part) => sum + part, 0);
  if (total === 0) return parts.map(() => 0);
  const exact = parts.map((part) => (part * 100) / total);
  const whole = exact.map(Math.floor);
  const byRemainder = exact
    .map((value, index) => index)
    .sort((a, b) => exact[b] - whole[b] - (exact[a] - whole[a]));
  for (const index of byRemainder.slice(0, 100 - whole.reduce((sum, value) => sum + value, 0)))
    whole[index] += 1;
  return whole;
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

/**
 * The UK phones' screening line (docs/product-rules.md, "UK compliance"): when the TPS and CTPS
 * screening is dated and what share of the numbers may be called.
 */
export function phoneScreeningText(screening: PhoneScreening | null): string {
  if (!screening) return "Phones not yet screened against the TPS and CTPS";
  const day = DAY.format(new Date(`${screening.screenedAt}T00:00:00Z`));
  if (!screening.current)
    return `Phones last screened against the TPS and CTPS on ${day}: over 28 days ago, so unscreened`;
  return `Phones screened against the TPS and CTPS on ${day}: ${screening.callablePercent}% callable`;
}
