import type { Pool, PoolClient } from "pg";

// A transaction on one connection of a plain pg pool, for the paths that stream COPY or run
// outside the app (the demo seed, benchmarks), where Prisma's `transaction()` (lib/db.ts) cannot
// serve: all of `work` or, when it throws, none of it.
export async function pgTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
