// Segments (docs/product-rules.md, "Segments"): real spellings map to the vocabularies in SQL (the
// stored generated facet columns), an import reports what stayed unknown, and the rollup behind
// GET /api/categories/{id}/segment equals count(*) over the leads after inserts, updates and deletes,
// also when the answer comes from the rollup this process holds.
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/database";
import { rollupMismatches as mismatches } from "../support/segments";

// Its own database: one test shows an answer held until the catalogue version moves, which no
// other file's changes may move in between.
const database = await createTestDatabase("leadmarket_segments");
process.env.DATABASE_URL = database.url;

const { db, pool } = await import("@/lib/db");
const { GET: getSegment } = await import("@/app/api/categories/[id]/segment/route");
const { importLeadsCsv } = await import("@/lib/leads/import");
const { insertLeads } = await import("@/lib/leads/insert");
const { createCategoryWithLeads, makeLeads } = await import("@/prisma/demo-data");
const { FACETS } = await import("@/lib/segments/vocabularies");
const { callJson } = await import("../support/routes");

type Answer = {
  count: number;
  facets: Record<string, Record<string, number>>;
  packages: Record<string, { available: boolean }>;
};

let categoryId: string;

beforeAll(async () => {
  categoryId = await createCategoryWithLeads(
    pool(),
    { title: "Software & SaaS" },
    { usa: 1200, uk: 300 },
    11,
  );
});

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
  await database.drop();
});

function segmentUrl(query: string): string {
  return `/api/categories/${categoryId}/segment?${query}`;
}

async function segment(query: string) {
  return callJson<Answer>(getSegment, segmentUrl(query), { params: { id: categoryId } });
}

/** The rollup against count(*) of sellable leads, per combination, for the category. */
const rollupMismatches = () => mismatches(pool(), categoryId);

function lead(email: string, cells: Record<string, string>) {
  return {
    ...makeLeads(1, { seed: email.length })[0],
    email,
    jobTitle: "",
    seniority: "",
    department: "",
    companySize: "",
    companyRevenue: "",
    state: "",
    city: "",
    ...cells,
  };
}

describe("facets", () => {
  it("map the spellings real files use", async () => {
    const mapping = await createCategoryWithLeads(pool(), { title: "Facet Mapping" }, 0);
    const cases: [Record<string, string>, Record<string, string>][] = [
      [{ seniority: "C-Level" }, { facet_seniority: "c_level" }],
      [{ seniority: "CXO" }, { facet_seniority: "c_level" }],
      [{ seniority: "Vice President" }, { facet_seniority: "vp" }],
      [{ seniority: "", jobTitle: "Chief Technology Officer" }, { facet_seniority: "c_level" }],
      [{ seniority: "", jobTitle: "Founder & CEO" }, { facet_seniority: "owner" }],
      [{ seniority: "Head", jobTitle: "Head of Product" }, { facet_seniority: "director" }],
      [{ seniority: "Mid-Senior level" }, { facet_seniority: "senior" }],
      [{ seniority: "", jobTitle: "Accountant" }, { facet_seniority: "unknown" }],
      [{ department: "Human Resources" }, { facet_department: "hr" }],
      [{ department: "Talent Acquisition" }, { facet_department: "hr" }],
      [{ department: "Information Technology" }, { facet_department: "it" }],
      [{ department: "Business Development" }, { facet_department: "sales" }],
      [{ department: "Academic Affairs" }, { facet_department: "other" }],
      [{ department: "" }, { facet_department: "unknown" }],
      [{ companySize: "5001-10000" }, { facet_size: "5001+" }],
      [{ companySize: "5000+" }, { facet_size: "5001+" }],
      [{ companySize: "10,001+" }, { facet_size: "5001+" }],
      [{ companySize: "51-200 employees" }, { facet_size: "51-200" }],
      [{ companySize: "Self-employed" }, { facet_size: "1-10" }],
      [{ companySize: "n/a" }, { facet_size: "unknown" }],
      [{ companyRevenue: "$10M-$50M" }, { facet_revenue: "10M-50M" }],
      [{ companyRevenue: "<$1M" }, { facet_revenue: "<1M" }],
      [{ companyRevenue: "$1-10 million" }, { facet_revenue: "1M-10M" }],
      [{ companyRevenue: "$500M-$1B" }, { facet_revenue: "500M-1B" }],
      [{ companyRevenue: "$2.5B" }, { facet_revenue: "1B+" }],
      [{ companyRevenue: "2,500,000" }, { facet_revenue: "1M-10M" }],
      [{ state: "CA" }, { facet_region: "CA" }],
      [{ state: "California" }, { facet_region: "CA" }],
      [{ state: "new york" }, { facet_region: "NY" }],
      [{ state: "Ontario" }, { facet_region: "unknown" }],
      [{ country: "UK", state: "Greater Manchester" }, { facet_region: "north_west" }],
      [{ country: "UK", state: "England", city: "Leeds" }, { facet_region: "yorkshire_and_the_humber" }],
      [{ country: "UK", state: "Scotland", city: "Glasgow" }, { facet_region: "scotland" }],
      [{ country: "UK", state: "Kent", city: "Canterbury" }, { facet_region: "south_east" }],
      [{ country: "UK", state: "England", city: "Atlantis" }, { facet_region: "unknown" }],
    ];
    await insertLeads(
      pool(),
      mapping,
      cases.map(([cells], index) => lead(`map${index}@facets.example`, cells) as never),
    );
    const { rows } = await pool().query(
      `SELECT email, facet_region, facet_seniority, facet_department, facet_size, facet_revenue
       FROM leads WHERE category_id = $1`,
      [mapping],
    );
    const byEmail = new Map(rows.map((row) => [row.email as string, row]));
    for (const [index, [cells, expected]] of cases.entries()) {
      expect({ cells, ...byEmail.get(`map${index}@facets.example`) }).toMatchObject({ cells, ...expected });
    }
  });

  it("reports the unmapped values of an import", async () => {
    const imported = await createCategoryWithLeads(pool(), { title: "Facet Import" }, 0);
    const csv = [
      "email,first_name,last_name,seniority,department,company_size,company_revenue,state,country",
      "a@import.example,A,One,C-Level,Sales,51-200,$10M-$50M,CA,USA",
      "b@import.example,B,Two,Wizard,,lots,,Atlantis,USA",
      "c@import.example,C,Three,VP,Marketing,11-50,$1M-$10M,Greater Manchester,UK",
    ].join("\n");
    const report = await importLeadsCsv(imported, Readable.from([`${csv}\n`]));
    expect(report.imported).toBe(3);
    expect(report.unknownFacets).toEqual({ region: 1, seniority: 1, department: 1, size: 1, revenue: 1 });
  });
});

describe("GET /api/categories/{id}/segment", () => {
  it("counts the segment and each facet under the other filters, exactly as count(*)", async () => {
    const { status, body } = await segment("location=USA&seniority=manager,director&size=51-200,201-500");
    expect(status).toBe(200);
    const count = async (where: string, params: unknown[] = []) =>
      (
        await pool().query<{ n: number }>(
          `SELECT count(*)::int AS n FROM leads WHERE category_id = $1 AND country = 'USA'
             AND lead_sellable(quarantined_at, email_status) AND ${where}`,
          [categoryId, ...params],
        )
      ).rows[0].n;
    const seniority = "facet_seniority IN ('manager', 'director')";
    const size = "facet_size IN ('51-200', '201-500')";
    expect(body.count).toBe(await count(`${seniority} AND ${size}`));
    expect(body.count).toBeGreaterThan(0);
    expect(body.facets.seniority.vp).toBe(await count(`facet_seniority = 'vp' AND ${size}`));
    expect(body.facets.size["1-10"]).toBe(await count(`facet_size = '1-10' AND ${seniority}`));
    expect(body.facets.region.CA).toBe(await count(`facet_region = 'CA' AND ${seniority} AND ${size}`));
    expect(Object.keys(body.facets.region)).toContain("WY");
    expect(Object.keys(body.facets.region)).not.toContain("london");
    expect(body.packages).toEqual({
      starter: { available: body.count >= 1000 },
      standard: { available: false },
      premium: { available: false },
    });

    const whole = await segment("");
    expect(whole.body.count).toBe(await count("true"));
    expect(whole.body.packages.starter.available).toBe(true);
    const uk = await segment("location=UK");
    expect(Object.keys(uk.body.facets.region)).toEqual(
      expect.arrayContaining(["london", "scotland", "unknown"]),
    );
  });

  it("answers count 0 for a segment matching nothing, 400 naming the field for unknown values", async () => {
    const none = await segment("location=USA&region=london");
    expect(none.status).toBe(200);
    expect(none.body.count).toBe(0);
    expect(Object.values(none.body.packages).every((pkg) => !pkg.available)).toBe(true);

    const bad = await segment("seniority=c_level,wizard");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errors: { seniority: "Unknown seniority: wizard" } });
    const badRegion = await segment("region=ZZ");
    expect(badRegion.body).toMatchObject({ errors: { region: "Unknown region: ZZ" } });
    const many = await segment(`region=${Array(61).fill("CA").join(",")}`);
    expect(many.status).toBe(400);
    const missing = await callJson(getSegment, "/api/categories/x/segment", {
      params: { id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(missing.status).toBe(404);
  });

  it("answers from its held copy until the catalogue changes, then from the change on", async () => {
    const query = "location=USA&region=CA,TX&seniority=manager,director,vp";
    const exact = async () =>
      (
        await pool().query<{ n: number }>(
          `SELECT count(*)::int AS n FROM leads WHERE category_id = $1 AND country = 'USA'
             AND lead_sellable(quarantined_at, email_status) AND facet_region IN ('CA', 'TX')
             AND facet_seniority IN ('manager', 'director', 'vp')`,
          [categoryId],
        )
      ).rows[0].n;
    const before = (await segment(query)).body;
    expect(before.count).toBe(await exact());
    // The rollup changed behind the version's back (nothing real does this): the held copy answers.
    const fake = `UPDATE category_segments SET leads = leads + $2 WHERE category_id = $1 AND country = 'USA'
      AND region = 'CA' AND seniority = 'manager'`;
    await pool().query(fake, [categoryId, 1000]);
    expect((await segment(query)).body).toEqual(before);
    await pool().query(fake, [categoryId, -1000]);

    // A real change (a verdict, as a re-check writes it) bumps the version: the next answer has it.
    await pool().query(
      `UPDATE leads SET email_status = 'invalid' WHERE id IN (
         SELECT id FROM leads WHERE category_id = $1 AND country = 'USA' AND facet_region = 'CA'
           AND facet_seniority = 'manager' AND lead_sellable(quarantined_at, email_status) LIMIT 3)`,
      [categoryId],
    );
    const after = (await segment(query)).body;
    expect(after.count).toBe(await exact());
    expect(after.count).toBe(before.count - 3);
    expect(after.facets.region.CA).toBe(before.facets.region.CA - 3);
    await pool().query(
      `UPDATE leads SET email_status = 'valid' WHERE category_id = $1 AND email_status = 'invalid'`,
      [categoryId],
    );
    expect((await segment(query)).body.count).toBe(await exact());
  });

  it("stays exact after inserts, quarantine, invalid verdicts, edits and deletes", async () => {
    expect(await rollupMismatches()).toEqual([]);
    await insertLeads(pool(), categoryId, makeLeads(200, { seed: 99, category: "Software & SaaS" }));
    expect(await rollupMismatches()).toEqual([]);
    await pool().query(
      `UPDATE leads SET quarantined_at = now() WHERE id IN (SELECT id FROM leads WHERE category_id = $1 LIMIT 40)`,
      [categoryId],
    );
    await pool().query(
      `UPDATE leads SET email_status = 'invalid' WHERE id IN (SELECT id FROM leads WHERE category_id = $1 ORDER BY id DESC LIMIT 30)`,
      [categoryId],
    );
    expect(await rollupMismatches()).toEqual([]);
    await pool().query(
      `UPDATE leads SET state = 'Texas', seniority = 'Vice President', company_size = '10,001+'
       WHERE id IN (SELECT id FROM leads WHERE category_id = $1 ORDER BY id LIMIT 60)`,
      [categoryId],
    );
    await pool().query(
      `UPDATE leads SET quarantined_at = NULL WHERE category_id = $1 AND quarantined_at IS NOT NULL`,
      [categoryId],
    );
    expect(await rollupMismatches()).toEqual([]);
    await pool().query(
      `DELETE FROM leads WHERE id IN (SELECT id FROM leads WHERE category_id = $1 LIMIT 75)`,
      [categoryId],
    );
    expect(await rollupMismatches()).toEqual([]);
    const { body } = await segment("location=USA");
    const { rows } = await pool().query(
      `SELECT count(*)::int AS n FROM leads WHERE category_id = $1 AND country = 'USA' AND lead_sellable(quarantined_at, email_status)`,
      [categoryId],
    );
    expect(body.count).toBe(rows[0].n);
    expect(
      FACETS.every((facet) => Object.values(body.facets[facet]).reduce((a, b) => a + b, 0) === body.count),
    ).toBe(true);
  });
});

describe("segment preview", () => {
  it("gives up within its time limit rather than hold a connection", async () => {
    const { segmentPreview } = await import("@/lib/segments/preview");
    // A lock held elsewhere stands in for a slow walk: the preview's statement waits either way.
    const locker = await pool().connect();
    try {
      await locker.query("BEGIN; LOCK TABLE leads IN ACCESS EXCLUSIVE MODE");
      const outcome = await Promise.race([
        segmentPreview(categoryId, "USA", { region: ["CA"] }).then(
          () => "answered",
          (error: unknown) => (error instanceof Error ? "gave up" : "threw"),
        ),
        new Promise<string>((resolve) => setTimeout(() => resolve("still waiting"), 5_000)),
      ]);
      expect(outcome).toBe("gave up");
    } finally {
      await locker.query("ROLLBACK");
      locker.release();
    }
  });
});
