import "server-only";
import type { Location } from "@/lib/categories/location";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { PACKAGES, type PackageId } from "@/lib/packages";
import { FACETS, facetValues, type Facet, type Segment } from "@/lib/segments/vocabularies";

// Segment counts (docs/product-rules.md, "Segments"): sums over category_segments, the rollup of
// sellable leads per facet combination the triggers on leads keep exact, never a count of leads.
// Each facet's numbers apply the other facets' filters, so an option shows what choosing it adds.

export type SegmentCounts = {
  count: number;
  facets: Record<Facet, Record<string, number>>;
  packages: Record<PackageId, { available: boolean }>;
};

const COLUMN: Record<Facet, Prisma.Sql> = {
  region: Prisma.raw("region"),
  seniority: Prisma.raw("seniority"),
  department: Prisma.raw("department"),
  size: Prisma.raw("size"),
  revenue: Prisma.raw("revenue"),
};

/** `facet = ANY(values)` for a filtered facet, `true` for one without a filter. */
function matches(segment: Segment | null, facet: Facet): Prisma.Sql {
  const values = segment?.[facet];
  return values ? Prisma.sql`${COLUMN[facet]} = ANY(${values}::text[])` : Prisma.sql`true`;
}

/** The sellable leads of a public category's country in a segment (null: all), and per facet value. */
export async function segmentCounts(
  categoryId: string,
  location: Location,
  segment: Segment | null,
): Promise<SegmentCounts> {
  const flags = FACETS.map((facet) => Prisma.sql`${matches(segment, facet)} AS ${Prisma.raw(`m_${facet}`)}`);
  const allBut = (skip?: Facet) =>
    Prisma.join(
      FACETS.filter((facet) => facet !== skip).map((facet) => Prisma.raw(`m_${facet}`)),
      " AND ",
    );
  // Only combinations failing at most one filter count anywhere: the others are dropped first.
  const failing = Prisma.join(
    FACETS.map((facet) => Prisma.raw(`(NOT m_${facet})::int`)),
    " + ",
  );
  const rows = await db().$queryRaw<{ facet: string; value: string; leads: number | null }[]>`
    WITH combos AS MATERIALIZED (
      SELECT * FROM (
        SELECT region, seniority, department, size, revenue, leads, ${Prisma.join(flags, ", ")}
        FROM category_segments WHERE category_id = ${categoryId}::uuid AND country = ${location}::"Country"
      ) c WHERE ${failing} <= 1
    )
    SELECT 'category' AS facet, '' AS value,
      (SELECT count FROM categories WHERE id = ${categoryId}::uuid AND count > 0) AS leads
    UNION ALL
    SELECT 'count', '', sum(leads)::int FROM combos WHERE ${allBut()}
    ${Prisma.join(
      FACETS.map(
        (facet) => Prisma.sql`UNION ALL SELECT ${facet}, ${COLUMN[facet]}, sum(leads)::int FROM combos
          WHERE ${allBut(facet)} GROUP BY ${COLUMN[facet]}`,
      ),
      " ",
    )}`;
  const single = (facet: string) => rows.find((row) => row.facet === facet)?.leads ?? null;
  if (single("category") === null) throw notFound("Category not found");
  const count = single("count") ?? 0;
  const facets = Object.fromEntries(
    FACETS.map((facet) => [
      facet,
      Object.fromEntries(facetValues(facet, location).map((value) => [value, 0])),
    ]),
  ) as SegmentCounts["facets"];
  for (const row of rows) {
    if (row.facet in facets && row.value in facets[row.facet as Facet])
      facets[row.facet as Facet][row.value] = row.leads ?? 0;
  }
  const packages = Object.fromEntries(
    PACKAGES.map((pkg) => [pkg.id, { available: count >= pkg.leadCount }]),
  ) as SegmentCounts["packages"];
  return { count, facets, packages };
}
