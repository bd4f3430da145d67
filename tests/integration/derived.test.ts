// The derived structures (prisma/derived, applied by lib/migrate.ts): the functions and triggers
// in the database are the files' own, no later versioned migration redefines one, every
// trigger-kept figure (and the unsold leads' walk) equals count(*) after every kind of write, the
// walk's rows are stored in its order, and the catalogue version watches the columns the
// catalogue pages read.
import { readFile } from "node:fs/promises";
import { Pool } from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { db, pool } from "@/lib/db";
import { previewSelect } from "@/lib/leads/previews";
import { readDerived, readMigrations } from "@/lib/migrate";
import { createCategoryWithLeads } from "@/prisma/demo-data";
import { createTestDatabase } from "../support/database";

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
});

// Functions whose output a stored column keeps (the facet vocabularies, email_sha256), and those
// they call: a change of one needs a versioned migration that writes those columns again, so they
// live there.
async function generatingFunctions(): Promise<Set<string>> {
  const { rows: columns } = await pool().query<{ expression: string }>(
    `SELECT pg_get_expr(d.adbin, d.adrelid) AS expression
       FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
      WHERE a.attgenerated = 's'`,
  );
  const { rows: functions } = await pool().query<{ name: string; body: string }>(
    `SELECT proname AS name, prosrc AS body FROM pg_proc WHERE pronamespace = 'public'::regnamespace`,
  );
  const called = (text: string): string[] =>
    functions.filter((f) => new RegExp(`\\b${f.name}\\(`).test(text)).map((f) => f.name);
  const found = new Set(columns.flatMap((column) => called(column.expression)));
  for (const name of found) {
    for (const callee of called(functions.find((f) => f.name === name)!.body)) found.add(callee);
  }
  return found;
}

type FileFunction = { name: string; body: string };

function functionsIn(sql: string): FileFunction[] {
  // Each function's body is dollar-quoted with $$, as PostgreSQL then stores it (prosrc).
  return [...sql.matchAll(/CREATE OR REPLACE FUNCTION "(\w+)"\([^)]*\)[^$]*?\$\$([\s\S]*?)\$\$;/g)].map(
    (match) => ({ name: match[1], body: match[2] }),
  );
}

function triggersIn(sql: string): string[] {
  return [...sql.matchAll(/CREATE TRIGGER "(\w+)"[\s\S]*? ON "(\w+)"[\s\S]*?EXECUTE FUNCTION "(\w+)"/g)].map(
    (match) => `${match[2]}.${match[1]} -> ${match[3]}`,
  );
}

describe("derived structures", () => {
  it("are in the database exactly as their files define them", async () => {
    const files = await readDerived();
    const fileFunctions = files.flatMap((file) => functionsIn(file.sql));
    const generating = await generatingFunctions();

    const { rows: functions } = await pool().query<{ name: string; body: string }>(
      `SELECT p.proname AS name, p.prosrc AS body FROM pg_proc p
        WHERE p.pronamespace = 'public'::regnamespace ORDER BY 1`,
    );
    const inDatabase = new Map(functions.map((row) => [row.name, row.body]));
    for (const { name, body } of fileFunctions) expect(inDatabase.get(name), name).toBe(body);
    // Every other function keeps a stored column.
    const elsewhere = functions
      .map((row) => row.name)
      .filter((name) => !fileFunctions.some((f) => f.name === name));
    expect(elsewhere.filter((name) => !generating.has(name))).toEqual([]);

    const { rows: triggers } = await pool().query<{ trigger: string }>(
      `SELECT tgrelid::regclass::text || '.' || tgname || ' -> ' || tgfoid::regproc::text AS trigger
         FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`,
    );
    expect(triggers.map((row) => row.trigger)).toEqual(files.flatMap((file) => triggersIn(file.sql)).sort());

    const { rows: recorded } = await pool().query<{ name: string; checksum: string }>(
      `SELECT name, checksum FROM "_derived_structures" ORDER BY name`,
    );
    expect(recorded).toEqual(files.map((file) => ({ name: file.name, checksum: file.checksum })));
  });

  it("are redefined by no versioned migration made since they have their files", async () => {
    const derivedSince = "20261128000000";
    const later = (await readMigrations()).filter((migration) => migration.name >= derivedSince);
    const generating = await generatingFunctions();
    for (const migration of later) {
      expect(migration.sql, migration.name).not.toMatch(/CREATE (OR REPLACE )?TRIGGER/i);
      const defined = [...migration.sql.matchAll(/CREATE (?:OR REPLACE )?FUNCTION "?(\w+)"?/gi)].map(
        (m) => m[1],
      );
      expect(
        defined.filter((name) => !generating.has(name)),
        migration.name,
      ).toEqual([]);
    }
  });

  it("keep every rollup equal to count(*) through inserts, updates and deletes", async () => {
    const categoryId = await createCategoryWithLeads(
      pool(),
      { title: `Derived ${Date.now()}` },
      { usa: 300, uk: 200 },
    );
    const otherId = await createCategoryWithLeads(pool(), { title: `Derived other ${Date.now()}` }, 50, 7);
    const leads = `SELECT id FROM leads WHERE category_id = '${categoryId}' ORDER BY id`;
    // Each kind of write the store makes: quarantine and release, a verdict, a check, a new
    // verification date, a remapped region, a move between categories, deletion.
    await pool().query(`UPDATE leads SET quarantined_at = now() WHERE id IN (${leads} LIMIT 40)`);
    await pool().query(`UPDATE leads SET quarantined_at = NULL WHERE id IN (${leads} LIMIT 10)`);
    await pool().query(`UPDATE leads SET email_status = 'invalid' WHERE id IN (${leads} OFFSET 50 LIMIT 30)`);
    await pool().query(
      `UPDATE leads SET email_status = 'accept_all' WHERE id IN (${leads} OFFSET 90 LIMIT 30)`,
    );
    await pool().query(
      `UPDATE leads SET email_checked_at = now() - interval '3 days' WHERE id IN (${leads} OFFSET 100 LIMIT 60)`,
    );
    await pool().query(
      `UPDATE leads SET verified_at = verified_at - interval '40 days' WHERE id IN (${leads} OFFSET 150 LIMIT 60)`,
    );
    await pool().query(
      `UPDATE leads SET state = 'Kent' WHERE id IN (${leads} OFFSET 200 LIMIT 20) AND country = 'UK'`,
    );
    await pool().query(`UPDATE leads SET state = 'WA' WHERE id IN (${leads} LIMIT 20) AND country = 'USA'`);
    await pool().query(
      `UPDATE leads SET category_id = '${otherId}' WHERE id IN (${leads} OFFSET 250 LIMIT 25)`,
    );
    await pool().query(`DELETE FROM leads WHERE id IN (${leads} OFFSET 300 LIMIT 35)`);
    await pool().query(
      `UPDATE leads SET source = 'Company websites' WHERE id IN (${leads} OFFSET 30 LIMIT 40)`,
    );
    // A statement that changes nothing the rollups keep leaves them as they are.
    await pool().query(`UPDATE leads SET email_status_reason = 'again' WHERE id IN (${leads} LIMIT 100)`);

    for (const id of [categoryId, otherId]) {
      const { rows } = await pool().query(
        `WITH sellable AS (SELECT * FROM leads WHERE category_id = $1 AND lead_sellable(quarantined_at, email_status, notice_status))
         SELECT 'count' AS rollup, (SELECT count FROM categories WHERE id = $1)::int AS kept, (SELECT count(*) FROM sellable)::int AS actual
         UNION ALL
         SELECT 'days', d.leads, a.leads FROM (
           SELECT country, (verified_at AT TIME ZONE 'UTC')::date AS verified_on, email_status, count(*)::int AS leads
             FROM sellable GROUP BY 1, 2, 3) a
           FULL JOIN (SELECT * FROM category_lead_days WHERE category_id = $1) d USING (country, verified_on, email_status)
         WHERE a.leads IS DISTINCT FROM d.leads
         UNION ALL
         SELECT 'segments', s.leads, a.leads FROM (
           SELECT country, email_status, facet_region AS region, facet_seniority AS seniority,
                  facet_department AS department, facet_size AS size, facet_revenue AS revenue, count(*)::int AS leads
             FROM sellable GROUP BY 1, 2, 3, 4, 5, 6, 7) a
           FULL JOIN (SELECT * FROM category_segments WHERE category_id = $1) s
             USING (country, email_status, region, seniority, department, size, revenue)
         WHERE a.leads IS DISTINCT FROM s.leads
         UNION ALL
         SELECT 'checks', k.leads, a.leads FROM (
           SELECT lead_checked_on(verified_at, email_checked_at) AS checked_on, count(*)::int AS leads FROM sellable GROUP BY 1) a
           FULL JOIN (SELECT * FROM category_check_days WHERE category_id = $1) k USING (checked_on)
         WHERE a.leads IS DISTINCT FROM k.leads
         UNION ALL
         SELECT 'sources', o.leads, a.leads FROM (
           SELECT source, count(*)::int AS leads FROM sellable GROUP BY 1) a
           FULL JOIN (SELECT * FROM category_sources WHERE category_id = $1) o USING (source)
         WHERE a.leads IS DISTINCT FROM o.leads`,
        [id],
      );
      expect(rows.filter((row) => row.rollup !== "count")).toEqual([]);
      expect(rows[0].kept).toBe(rows[0].actual);
    }
    // No lead of either is sold: allocation's walk holds each, by its category, country and date.
    const { rows: walk } = await pool().query(
      `SELECT l.id, u.lead_id FROM (SELECT * FROM leads WHERE category_id IN ($1, $2)) AS l
         FULL JOIN (SELECT * FROM unsold_leads WHERE category_id IN ($1, $2)) u
           ON u.lead_id = l.id AND u.category_id = l.category_id AND u.country = l.country AND u.verified_at = l.verified_at
        WHERE l.id IS NULL OR u.lead_id IS NULL`,
      [categoryId, otherId],
    );
    expect(walk).toEqual([]);

    // Deleting a category takes its leads and rollups; the other category's stay exact.
    await pool().query("DELETE FROM categories WHERE id = $1", [categoryId]);
    const { rows: left } = await pool().query(
      `SELECT (SELECT count(*) FROM category_lead_days WHERE category_id = $1)::int
            + (SELECT count(*) FROM category_segments WHERE category_id = $1)::int
            + (SELECT count(*) FROM category_check_days WHERE category_id = $1)::int
            + (SELECT count(*) FROM category_sources WHERE category_id = $1)::int AS rows`,
      [categoryId],
    );
    expect(left[0].rows).toBe(0);
  });

  it("store new unsold leads in the walk's order, so a sale's removals share pages", async () => {
    // A database of its own: another test file's deletes in the shared one leave free space in
    // unsold_leads' pages, which new rows fill out of their order.
    const own = await createTestDatabase("leadmarket_derived_order");
    const ownPool = new Pool({ connectionString: own.url });
    try {
      const categoryId = await createCategoryWithLeads(
        ownPool,
        { title: `Derived order ${Date.now()}` },
        { usa: 600, uk: 400 },
        11,
      );
      // The heap's order (ctid) against allocation's walk: one COPY's leads, in any verified order.
      const { rows } = await ownPool.query<{ stored: string[]; walked: string[] }>(
        `SELECT array_agg(lead_id ORDER BY ctid) AS stored,
                array_agg(lead_id ORDER BY country, verified_at DESC, lead_id) AS walked
           FROM unsold_leads WHERE category_id = $1`,
        [categoryId],
      );
      expect(rows[0].stored).toHaveLength(1000);
      expect(rows[0].stored).toEqual(rows[0].walked);
    } finally {
      await ownPool.end();
      await own.drop();
    }
  });

  it("bump the catalogue version on exactly the lead columns the catalogue pages read", async () => {
    const sql = (await readDerived()).map((file) => file.sql).join("\n");
    const body = functionsIn(sql).find((f) => f.name === "leads_catalogue_version_update")!.body;
    // The old row's columns compared with the new row's (the id only pairs them).
    const watched = new Set(
      [...body.matchAll(/\bo\.(\w+)/g)].map((match) => match[1]).filter((c) => c !== "id"),
    );
    // Previews show these fields; counts, freshness, status mix, segments and the source mix come
    // from the rollups, whose keys are these columns.
    const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const previews = Object.keys(previewSelect)
      .filter((key) => key !== "id")
      .map(snake);
    const rollupKeys = [
      "category_id",
      "country",
      "verified_at",
      "email_status",
      "quarantined_at",
      "notice_status",
      "source",
    ].concat(["region", "seniority", "department", "size", "revenue"].map((facet) => `facet_${facet}`));
    expect([...watched].sort()).toEqual([...new Set([...previews, ...rollupKeys])].sort());
    // The segment previews read no column the list lacks.
    const segmentPreviews = await readFile("lib/leads/segment-preview.ts", "utf8");
    const selected = segmentPreviews.match(/SELECT ([\w, :]+) FROM leads/)![1].split(",");
    for (const column of selected.map((c) => c.trim().replace(/::\w+$/, "")))
      expect(watched).toContain(column);
  });
});
