// The segments rollup (category_segments) against count(*) of a category's sellable leads.
import type { Pool } from "pg";

/** The rows where the rollup and count(*) per email status and combination of facets differ: none when exact. */
export async function rollupMismatches(pool: Pool, categoryId: string): Promise<unknown[]> {
  const { rows } = await pool.query(
    `SELECT * FROM (
       SELECT country, email_status, facet_region AS region, facet_seniority AS seniority, facet_department AS department,
              facet_size AS size, facet_revenue AS revenue, count(*)::int AS leads
       FROM leads WHERE category_id = $1 AND lead_sellable(quarantined_at, email_status, notice_status) GROUP BY 1, 2, 3, 4, 5, 6, 7
     ) actual FULL JOIN (SELECT * FROM category_segments WHERE category_id = $1) s
       USING (country, email_status, region, seniority, department, size, revenue)
     WHERE actual.leads IS DISTINCT FROM s.leads`,
    [categoryId],
  );
  return rows;
}
