import type { PoolClient } from "pg";
import { FACETS, UNKNOWN, type Facet } from "../segments/vocabularies";

/** How many leads of an import each facet could not map (`unknown`), per facet. */
export type UnknownFacets = Record<Facet, number>;

/**
 * Counts the unmapped facets of the leads the client's open transaction inserted into a category
 * (rows whose xmin is that transaction), read from the stored generated facet columns.
 */
export async function unknownFacetsInserted(client: PoolClient, categoryId: string): Promise<UnknownFacets> {
  const { rows } = await client.query<UnknownFacets>(
    `SELECT ${FACETS.map((facet) => `count(*) FILTER (WHERE facet_${facet} = '${UNKNOWN}')::int AS "${facet}"`).join(", ")}
     FROM leads WHERE category_id = $1::uuid AND xmin = pg_current_xact_id()::xid`,
    [categoryId],
  );
  return rows[0];
}
