// Fresh, throw-away PostgreSQL databases for test runs, on a local server only.
import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { migrate } from "../../lib/migrate";

export const ADMIN_DATABASE_URL =
  process.env.TEST_DATABASE_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Refuses to touch anything but a database on this machine. */
export function assertLocalDatabase(url: string): void {
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
    throw new Error(`Tests only run against a local PostgreSQL, not ${host}`);
  }
}

export type TestDatabase = { url: string; name: string; drop: () => Promise<void> };

async function withAdmin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  assertLocalDatabase(ADMIN_DATABASE_URL);
  const client = new Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database with every migration applied (or none, for tests of migrating). */
export async function createTestDatabase(
  prefix = "leadmarket_test",
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  if (options.migrate ?? true) await migrate(url.toString());
  return {
    url: url.toString(),
    name,
    drop: () =>
      withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
