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

function urlOf(name: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function handle(name: string): TestDatabase {
  return {
    url: urlOf(name),
    name,
    drop: () =>
      withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

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
  const migrated = options.migrate ?? true;
  // Inside a vitest run the run's template is already migrated: a copy of it is the same database.
  const template = migrated ? process.env.TEST_DATABASE_TEMPLATE : undefined;
  if (template) return cloneTestDatabase(template, name);
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
  if (migrated) await migrate(urlOf(name));
  return handle(name);
}

/**
 * A copy of `template` named `name`, made once (a vitest worker's own database: its test files
 * run one after another in it, never beside another worker's). Copying is a file copy, far
 * cheaper than migrating; the template must have no open connection meanwhile.
 */
export async function cloneTestDatabase(template: string, name: string): Promise<TestDatabase> {
  await withAdmin(async (client) => {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  });
  return handle(name);
}

/** Drops every database whose name starts with `prefix`. */
export async function dropTestDatabases(prefix: string): Promise<void> {
  await withAdmin(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE starts_with(datname, $1)",
      [prefix],
    );
    for (const row of rows) await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
  });
}
