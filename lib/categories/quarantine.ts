import "server-only";
import type { PoolClient } from "pg";
import { pool, withTransaction } from "@/lib/db";
import { notFound } from "@/lib/errors";

// Leads buyers reported invalid in accepted replacement claims (docs/product-rules.md,
// "Replacement claims") wait here, outside their category's count, until the admin releases them
// (sellable again) or deletes them.

export type QuarantineCount = { categoryId: string; quarantined: number };

/** Quarantined leads per category (only categories that have some). */
export async function quarantineCounts(): Promise<QuarantineCount[]> {
  const { rows } = await pool().query<{ category_id: string; quarantined: number }>(
    `SELECT category_id, count(*)::int AS quarantined FROM leads
      WHERE quarantined_at IS NOT NULL GROUP BY category_id`,
  );
  return rows.map((row) => ({ categoryId: row.category_id, quarantined: row.quarantined }));
}

async function lockCategory(client: PoolClient, id: string): Promise<void> {
  const { rowCount } = await client.query("SELECT 1 FROM categories WHERE id = $1 FOR UPDATE", [id]);
  if (!rowCount) throw notFound("Category not found");
}

/** Makes the category's quarantined leads sellable again; answers how many. A catalogue change. */
export async function releaseQuarantine(categoryId: string): Promise<number> {
  return withTransaction(async (client) => {
    await lockCategory(client, categoryId);
    const { rowCount } = await client.query(
      "UPDATE leads SET quarantined_at = NULL WHERE category_id = $1 AND quarantined_at IS NOT NULL",
      [categoryId],
    );
    const released = rowCount ?? 0;
    await client.query("UPDATE categories SET count = count + $2, updated_at = now() WHERE id = $1", [
      categoryId,
      released,
    ]);
    return released;
  });
}

/**
 * Deletes the category's quarantined leads, and their rows in orders sold before the report (an
 * address known to be invalid is of no use to any buyer). The count does not move: quarantined
 * leads had already left it. A catalogue change.
 */
export async function deleteQuarantined(categoryId: string): Promise<number> {
  return withTransaction(async (client) => {
    await lockCategory(client, categoryId);
    await client.query(
      `DELETE FROM order_leads WHERE lead_id IN
         (SELECT id FROM leads WHERE category_id = $1 AND quarantined_at IS NOT NULL)`,
      [categoryId],
    );
    const { rowCount } = await client.query(
      "DELETE FROM leads WHERE category_id = $1 AND quarantined_at IS NOT NULL",
      [categoryId],
    );
    await client.query("UPDATE categories SET updated_at = now() WHERE id = $1", [categoryId]);
    return rowCount ?? 0;
  });
}
