import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import { FACETS, type Segment } from "@/lib/segments/vocabularies";

/** A segment as a condition on the leads' stored facet columns (`true` when it narrows nothing). */
export function segmentSql(segment: Segment): Prisma.Sql {
  const conditions = FACETS.filter((facet) => segment[facet]?.length).map(
    (facet) => Prisma.sql`${Prisma.raw(`facet_${facet}`)} = ANY(${segment[facet]}::text[])`,
  );
  return conditions.length ? Prisma.join(conditions, " AND ") : Prisma.sql`true`;
}
