import "server-only";
import { EMAIL_QUALITY_STATUSES, type EmailQuality } from "@/lib/email-quality";
import type { Location } from "@/lib/location";
import { notFound } from "@/lib/errors";
import { PACKAGES, type PackageId } from "@/lib/packages";
import { categoryRollup, ROLLUP_STATUSES } from "@/lib/segments/rollup";
import { FACETS, VOCABULARIES, facetValues, type Facet, type Segment } from "@/lib/segments/vocabularies";

// Segment counts (docs/product-rules.md, "Segments"): sums over category_segments, the rollup of
// sellable leads per email status and facet combination the triggers on leads keep exact, never a
// count of leads. The email quality chosen (lib/email-quality.ts) leaves out the other statuses'
// rows, as lib/leads/eligible.ts leaves out their leads. Each facet's numbers apply the other
// facets' filters, so an option shows what choosing it adds.
// The sums run over this process's copy of the rollup (lib/segments/rollup.ts): a few thousand
// rows per category, a few microseconds.

export type SegmentCounts = {
  count: number;
  facets: Record<Facet, Record<string, number>>;
  packages: Record<PackageId, { available: boolean }>;
};

/** Per facet, a table of the chosen values' codes (1 = chosen); null for a facet without a filter. */
function chosenCodes(segment: Segment | null): (Uint8Array | null)[] {
  return FACETS.map((facet) => {
    const values = segment?.[facet];
    if (!values) return null;
    const chosen = new Uint8Array(256);
    for (const value of values) {
      const code = VOCABULARIES[facet].indexOf(value);
      if (code >= 0) chosen[code] = 1;
    }
    return chosen;
  });
}

/**
 * The sellable leads of a public category's country in a segment (null: all) and email quality,
 * and per facet value.
 */
export async function segmentCounts(
  categoryId: string,
  location: Location,
  segment: Segment | null,
  emailQuality: EmailQuality = "any",
): Promise<SegmentCounts> {
  const { public: listed, codes, statuses, leads } = await categoryRollup(categoryId, location);
  if (!listed) throw notFound("Category not found");
  const chosen = chosenCodes(segment);
  const accepted = ROLLUP_STATUSES.map((status) => EMAIL_QUALITY_STATUSES[emailQuality].includes(status));
  const sums = FACETS.map(() => new Float64Array(256));
  let count = 0;
  for (let row = 0; row < leads.length; row += 1) {
    if (!accepted[statuses[row]]) continue;
    // A combination failing one filter counts only in that facet's numbers; failing two, nowhere.
    let failed = -1;
    let failures = 0;
    for (let f = 0; f < FACETS.length && failures < 2; f += 1) {
      if (chosen[f] && !chosen[f]![codes[f][row]]) {
        failed = f;
        failures += 1;
      }
    }
    if (failures === 1) sums[failed][codes[failed][row]] += leads[row];
    if (failures !== 0) continue;
    count += leads[row];
    for (let f = 0; f < FACETS.length; f += 1) sums[f][codes[f][row]] += leads[row];
  }
  const facets = Object.fromEntries(
    FACETS.map((facet, f) => [
      facet,
      Object.fromEntries(
        facetValues(facet, location).map((value) => [value, sums[f][VOCABULARIES[facet].indexOf(value)]]),
      ),
    ]),
  ) as SegmentCounts["facets"];
  const packages = Object.fromEntries(
    PACKAGES.map((pkg) => [pkg.id, { available: count >= pkg.leadCount }]),
  ) as SegmentCounts["packages"];
  return { count, facets, packages };
}
