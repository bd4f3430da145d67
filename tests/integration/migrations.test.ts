import { Client } from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrate, readMigrations } from "@/lib/migrate";
import { createTestDatabase, type TestDatabase } from "../support/database";

const databases: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(databases.map((database) => database.drop()));
});

async function emptyDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase("leadmarket_migrate");
  databases.push(database);
  const client = new Client({ connectionString: database.url });
  await client.connect();
  await client.query("DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
  await client.end();
  return database;
}

async function recorded(url: string) {
  const client = new Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query(
    `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
  );
  await client.end();
  return rows;
}

/** A database with the migrations before `name` applied, without the derived structures. */
async function migratedBefore(name: string): Promise<TestDatabase> {
  const database = await emptyDatabase();
  const { mkdtemp, mkdir, writeFile } = await import("node:fs/promises");
  const dir = await mkdtemp("/tmp/migrations-");
  for (const migration of await readMigrations()) {
    if (migration.name >= name) continue;
    await mkdir(`${dir}/${migration.name}`);
    await writeFile(`${dir}/${migration.name}/migration.sql`, migration.sql);
  }
  await migrate(database.url, { migrations: dir, derived: null });
  return database;
}

describe("migration runner", () => {
  it("records each migration as Prisma does, once, even when two instances start together", async () => {
    const database = await emptyDatabase();
    const results = await Promise.all([migrate(database.url), migrate(database.url), migrate(database.url)]);
    const migrations = await readMigrations();
    expect(results.flat().sort()).toEqual(migrations.map((m) => m.name).sort());
    const rows = await recorded(database.url);
    expect(rows.map((row) => row.migration_name)).toEqual(migrations.map((m) => m.name));
    for (const [index, row] of rows.entries()) {
      expect(row.checksum).toBe(migrations[index].checksum);
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.applied_steps_count).toBe(1);
    }
    expect(await migrate(database.url)).toEqual([]);
  });

  it("rolls a failing migration back completely and records nothing", async () => {
    const database = await emptyDatabase();
    const { mkdtemp, mkdir, writeFile } = await import("node:fs/promises");
    const dir = await mkdtemp("/tmp/migrations-");
    await mkdir(`${dir}/001_ok`);
    await writeFile(`${dir}/001_ok/migration.sql`, "CREATE TABLE a (id int);");
    await mkdir(`${dir}/002_bad`);
    await writeFile(`${dir}/002_bad/migration.sql`, "CREATE TABLE b (id int); SELECT no_such_function();");
    await expect(migrate(database.url, { migrations: dir, derived: null })).rejects.toThrow(/002_bad failed/);
    const rows = await recorded(database.url);
    expect(rows.map((row) => row.migration_name)).toEqual(["001_ok"]);
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const { rowCount } = await client.query("SELECT 1 FROM pg_tables WHERE tablename = 'b'");
    await client.end();
    expect(rowCount).toBe(0);
  });

  it("refuses to run when an applied migration was edited, before applying anything else", async () => {
    const database = await emptyDatabase();
    const { mkdtemp, mkdir, writeFile } = await import("node:fs/promises");
    const dir = await mkdtemp("/tmp/migrations-");
    await mkdir(`${dir}/001_first`);
    await writeFile(`${dir}/001_first/migration.sql`, "CREATE TABLE a (id int);\n");
    expect(await migrate(database.url, { migrations: dir, derived: null })).toEqual(["001_first"]);

    // The same file checked out with Windows line endings is not an edit.
    await writeFile(`${dir}/001_first/migration.sql`, "CREATE TABLE a (id int);\r\n");
    expect(await migrate(database.url, { migrations: dir, derived: null })).toEqual([]);

    await writeFile(`${dir}/001_first/migration.sql`, "CREATE TABLE a (id bigint);\n");
    await mkdir(`${dir}/002_second`);
    await writeFile(`${dir}/002_second/migration.sql`, "CREATE TABLE b (id int);");
    await expect(migrate(database.url, { migrations: dir, derived: null })).rejects.toThrow(
      /^Migration 001_first was modified after it was applied/,
    );
    const rows = await recorded(database.url);
    expect(rows.map((row) => row.migration_name)).toEqual(["001_first"]);
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const { rowCount } = await client.query("SELECT 1 FROM pg_tables WHERE tablename = 'b'");
    await client.end();
    expect(rowCount).toBe(0);
  });

  it("gives orders made before download keys a key each, and paid ones their 30-day window", async () => {
    const database = await emptyDatabase();
    const { mkdtemp, mkdir, copyFile } = await import("node:fs/promises");
    const dir = await mkdtemp("/tmp/migrations-");
    await mkdir(`${dir}/20261121000000_init`);
    await copyFile(
      `${MIGRATIONS_DIR}/20261121000000_init/migration.sql`,
      `${dir}/20261121000000_init/migration.sql`,
    );
    await migrate(database.url, { migrations: dir, derived: null });
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const category = await client.query<{ id: string }>(
      "INSERT INTO categories (title, updated_at) VALUES ('Old', now()) RETURNING id",
    );
    await client.query(
      `INSERT INTO orders (category_id, lead_title, package_type, lead_count, amount, status, paid_at, updated_at)
       SELECT $1, 'Old', 'starter', 1000, 10, s, CASE WHEN s = 'finished' THEN now() END, now()
       FROM unnest(ARRAY['finished', 'pending', 'waiting']) AS s`,
      [category.rows[0].id],
    );
    await migrate(database.url);
    const { rows } = await client.query<{
      download_key: string;
      status: string;
      expires_in_days: number | null;
      events: number;
    }>(
      `SELECT download_key, status, extract(day FROM download_expires_at - paid_at)::int AS expires_in_days,
              (SELECT count(*)::int FROM order_events e WHERE e.order_id = o.id) AS events
       FROM orders o ORDER BY status`,
    );
    await client.end();
    expect(rows.map((row) => row.status)).toEqual(["finished", "pending", "waiting"]);
    for (const row of rows) {
      expect(row.download_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(row.events).toBe(1);
    }
    expect(new Set(rows.map((row) => row.download_key)).size).toBe(3);
    expect(rows.map((row) => row.expires_in_days)).toEqual([30, null, null]);
  });

  it("takes UK leads stored before notices off sale until theirs is sent, and counts again", async () => {
    const database = await migratedBefore("20261201090000_privacy_notices");
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const { rows: categories } = await client.query<{ id: string }>(
      "INSERT INTO categories (title, updated_at) VALUES ('Before notices', now()) RETURNING id",
    );
    const category = categories[0].id;
    // Without their derived structures (today's files need this migration), the migrations' own
    // triggers are of earlier versions: off while the leads go in. The migration counts afresh.
    await client.query("ALTER TABLE leads DISABLE TRIGGER USER");
    await client.query(
      `INSERT INTO leads (category_id, first_name, last_name, email, country, verified_at, source)
       SELECT $1, 'P', 'Q', 'p' || i || '@old.example', CASE WHEN i <= 3 THEN 'UK' ELSE 'USA' END::"Country", now(), 'Old'
         FROM generate_series(1, 5) AS i`,
      [category],
    );
    await client.query("ALTER TABLE leads ENABLE TRIGGER USER");
    await migrate(database.url);
    const { rows } = await client.query(
      `SELECT c.count,
              (SELECT sum(leads)::int FROM category_lead_days d WHERE d.category_id = c.id) AS days,
              (SELECT sum(leads)::int FROM category_segments s WHERE s.category_id = c.id) AS segments,
              (SELECT sum(leads)::int FROM category_check_days k WHERE k.category_id = c.id) AS checks,
              (SELECT sum(leads)::int FROM category_sources o WHERE o.category_id = c.id) AS sources,
              (SELECT array_agg(DISTINCT country::text || ' ' || notice_status::text) FROM leads l
                WHERE l.category_id = c.id) AS statuses
         FROM categories c WHERE c.id = $1`,
      [category],
    );
    await client.end();
    expect(rows).toEqual([
      { count: 2, days: 2, segments: 2, checks: 2, sources: 2, statuses: ["UK due", "USA not_required"] },
    ]);
  });

  it("walks the leads stored before unsold_leads that no order delivered", async () => {
    const database = await migratedBefore("20261202090000_unsold_leads");
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const { rows: categories } = await client.query<{ id: string }>(
      "INSERT INTO categories (title, updated_at) VALUES ('Before unsold', now()) RETURNING id",
    );
    const category = categories[0].id;
    await client.query("ALTER TABLE leads DISABLE TRIGGER USER");
    const { rows: leads } = await client.query<{ id: string }>(
      `INSERT INTO leads (category_id, first_name, last_name, email, country, verified_at)
       SELECT $1, 'P', 'Q', 'p' || i || '@old.example', 'USA', '2026-11-01T00:00:00Z'::timestamptz + i * interval '1 hour'
         FROM generate_series(1, 5) AS i RETURNING id::text`,
      [category],
    );
    await client.query("ALTER TABLE leads ENABLE TRIGGER USER");
    // Two of them sold (the counter as order_leads' triggers left it).
    await client.query(
      "INSERT INTO lead_sales (category_id, lead_id, sold) SELECT $1, unnest($2::bigint[]), 1",
      [category, leads.slice(0, 2).map((lead) => lead.id)],
    );
    await migrate(database.url);
    const { rows } = await client.query(
      `SELECT u.lead_id::text AS id, u.country::text, u.verified_at = l.verified_at AS walked_at
         FROM unsold_leads u JOIN leads l ON l.id = u.lead_id WHERE u.category_id = $1 ORDER BY u.lead_id`,
      [category],
    );
    await client.end();
    expect(rows).toEqual(leads.slice(2).map(({ id }) => ({ id, country: "USA", walked_at: true })));
  });
});
