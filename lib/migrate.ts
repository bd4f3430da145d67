// Applies prisma/migrations/*/migration.sql the way `prisma migrate deploy` does, without Prisma's
// native engine: same `_prisma_migrations` bookkeeping (so either tool can take over), same advisory
// lock (so instances starting together apply each migration once), one transaction per migration,
// and the same checksum (SHA-256 hex of migration.sql): a migration edited after it was applied
// stops the run before anything else is applied.
//
// Then, under the same lock, the derived structures of prisma/derived/*.sql (trigger functions,
// their triggers, shared predicates) as Flyway applies repeatable migrations: each file is the live
// definition, idempotent, and runs again, in its own transaction and in name order, whenever its
// checksum differs from the one recorded in `_derived_structures`. Versioned migrations keep table
// changes and backfills, so a trigger's live body is one file, never the last of several
// migrations that redefine it.
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "pg";

// The lock key Prisma Migrate itself takes.
const PRISMA_MIGRATE_LOCK = 72707369;

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");
export const DERIVED_DIR = path.join(process.cwd(), "prisma", "derived");

export type Migration = { name: string; sql: string; checksum: string };

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

// As Prisma does, a file whose only change is its line endings (a Windows checkout) still matches.
function matchesChecksum(sql: string, checksum: string): boolean {
  const lf = sql.replace(/\r\n/g, "\n");
  return [sql, lf, lf.replace(/\n/g, "\r\n")].some((variant) => sha256(variant) === checksum);
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: sha256(sql) };
    }),
  );
}

export async function readDerived(dir = DERIVED_DIR): Promise<Migration[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith(".sql")).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name), "utf8");
      return { name, sql, checksum: sha256(sql) };
    }),
  );
}

async function inTransaction(client: Client, sql: string, record: () => Promise<unknown>): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query(sql);
    await record();
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

/** Applies the derived structures whose files changed since they were last applied. */
async function applyDerived(client: Client, dir: string): Promise<void> {
  await client.query(`CREATE TABLE IF NOT EXISTS "_derived_structures" (
    "name" TEXT PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now()
  )`);
  const { rows } = await client.query<{ name: string; checksum: string }>(
    `SELECT name, checksum FROM "_derived_structures"`,
  );
  const recorded = new Map(rows.map((row) => [row.name, row.checksum]));
  for (const file of await readDerived(dir)) {
    const checksum = recorded.get(file.name);
    if (checksum !== undefined && matchesChecksum(file.sql, checksum)) continue;
    await inTransaction(client, file.sql, () =>
      client.query(
        `INSERT INTO "_derived_structures" (name, checksum) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()`,
        [file.name, file.checksum],
      ),
    ).catch((error: Error) => {
      throw new Error(`Derived structure ${file.name} failed: ${error.message}`);
    });
  }
}

export type MigrationDirs = {
  migrations?: string;
  /** null: versioned migrations only (tests that stop at an earlier point of the history). */
  derived?: string | null;
};

/** Applies pending migrations, then changed derived structures; returns the migrations applied. */
export async function migrate(
  databaseUrl: string,
  { migrations: dir = MIGRATIONS_DIR, derived = DERIVED_DIR }: MigrationDirs = {},
): Promise<string[]> {
  const migrations = await readMigrations(dir);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
    }>(`SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`);
    const failed = rows.find((row) => row.finished_at === null);
    if (failed) {
      throw new Error(
        `Migration ${failed.migration_name} failed earlier and was never resolved; fix the database, then run \`prisma migrate resolve\`.`,
      );
    }
    const files = new Map(migrations.map((migration) => [migration.name, migration]));
    for (const row of rows) {
      const file = files.get(row.migration_name);
      if (file && !matchesChecksum(file.sql, row.checksum)) {
        throw new Error(
          `Migration ${row.migration_name} was modified after it was applied (recorded checksum ${row.checksum}, file now ${file.checksum}). Restore its migration.sql and put the change in a new migration.`,
        );
      }
    }
    const applied = new Set(rows.map((row) => row.migration_name));
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.name)) continue;
      await inTransaction(client, migration.sql, () =>
        client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), now(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        ),
      ).catch((error: Error) => {
        throw new Error(`Migration ${migration.name} failed: ${error.message}`);
      });
      done.push(migration.name);
    }
    if (derived) await applyDerived(client, derived);
    return done;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK]).catch(() => undefined);
    await client.end();
  }
}
