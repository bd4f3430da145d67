// Shared by the benchmark scripts.
import { random } from "../prisma/demo-data";
import { FACETS, facetValues, type Facet } from "../lib/segments/vocabularies";

/** The middle value of the runs (the upper one of the two middles for an even count). */
export function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** The value `share` of the runs are at or under (nearest rank). */
export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}

export type Combination = { location: "USA" | "UK"; filters: Partial<Record<Facet, string[]>> };

/** One to three facets, each with one to three values, mostly of the USA. */
export function combinations(count: number, seed: number): Combination[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  return Array.from({ length: count }, () => {
    const location = next() < 0.8 ? "USA" : "UK";
    const filters: Combination["filters"] = {};
    const facets = [...FACETS].sort(() => next() - 0.5).slice(0, 1 + Math.floor(next() * 3));
    for (const facet of facets) {
      const values = new Set<string>();
      const wanted = 1 + Math.floor(next() * 3);
      while (values.size < wanted)
        values.add(pick(facetValues(facet, location).filter((v) => v !== "unknown")));
      filters[facet] = [...values];
    }
    return { location, filters };
  });
}

/** The segment endpoint's (and the category page's) query string of a combination. */
export function segmentQuery({ location, filters }: Combination): string {
  return [
    `location=${location}`,
    ...Object.entries(filters).map(([facet, values]) => `${facet}=${encodeURIComponent(values.join(","))}`),
  ].join("&");
}
