import { Client } from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { migrate, readMigrations } from "@/lib/migrate";
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
    await expect(migrate(database.url, dir)).rejects.toThrow(/002_bad failed/);
    const rows = await recorded(database.url);
    expect(rows.map((row) => row.migration_name)).toEqual(["001_ok"]);
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const { rowCount } = await client.query("SELECT 1 FROM pg_tables WHERE tablename = 'b'");
    await client.end();
    expect(rowCount).toBe(0);
  });
});
