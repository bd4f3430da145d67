// The freshness line shown on category cards and the category page (docs/product-rules.md,
// "Freshness"). Dates in UTC, so the server's and the browser's renders agree.
const DAY = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

export function freshnessText(percent: number, updatedAt: string | null): string {
  const verified = `${percent}% verified in the last 30 days`;
  return updatedAt ? `${verified} · Updated ${DAY.format(new Date(updatedAt))}` : verified;
}
