import type { Pool } from "pg";

/** A new category without leads, titled `title`: its id. */
export async function emptyCategory(pool: Pool, title: string): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    "INSERT INTO categories (title) VALUES ($1) RETURNING id",
    [title],
  );
  return rows[0].id;
}
