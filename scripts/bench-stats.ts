// Shared by the benchmark scripts.
import { readdirSync, readFileSync } from "node:fs";
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

/** A process and all its descendants (Next may run its server in a child). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const tree: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    tree.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Summed RSS of the given processes, in bytes. Reads only their status files, so sampling it
 * every few milliseconds takes next to no CPU from the server being measured. */
export function rss(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      total += match ? Number(match[1]) * 1024 : 0;
    } catch {
      // ended
    }
  }
  return total;
}
