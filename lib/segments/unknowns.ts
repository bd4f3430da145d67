import type { PoolClient } from "pg";
import { FACETS, UNKNOWN, type Facet } from "../segments/vocabularies";

/** How many leads of an import each facet could not map (`unknown`), per facet. */
export type UnknownFacets = Record<Facet, number>;

/**
 * The id below every lead inserted from now on (the ids' sequence is past it; a sequence is not
 * rolled back), read before an import inserts, so that counting its rows reads only rows as new.
 */
export async function leadIdsFrom(client: PoolClient): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    "SELECT (CASE WHEN is_called THEN last_value ELSE last_value - 1 END)::text AS id FROM leads_id_seq",
  );
  return rows[0].id;
}

/**
 * Counts the unmapped facets of the leads the client's open transaction inserted into a category
 * (rows whose xmin is that transaction) with ids above `afterId` (leadIdsFrom), read from the stored
 * generated facet columns: a walk of the primary key over the rows new since, not the category.
 */
export async function unknownFacetsInserted(
  client: PoolClient,
  categoryId: string,
  afterId: string,
): Promise<UnknownFacets> {
  const { rows } = await client.query<UnknownFacets>(
    `SELECT ${FACETS.map((facet) => `count(*) FILTER (WHERE facet_${facet} = '${UNKNOWN}')::int AS "${facet}"`).join(", ")}
     FROM leads WHERE id > $2::bigint AND category_id = $1::uuid AND xmin = pg_current_xact_id()::xid`,
    [categoryId, afterId],
  );
  return rows[0];
}
