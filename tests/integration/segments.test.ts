// Segments (docs/product-rules.md, "Segments"): real spellings map to the vocabularies in SQL (the
// stored generated facet columns), an import reports what stayed unknown, and the rollup behind
// GET /api/categories/{id}/segment equals count(*) over the leads after inserts, updates, deletes and
// the re-check worker's verdicts (against the loopback DNS server and the ZeroBounce stand-in), also
// when the answer comes from the rollup this process holds.
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/database";
import { startDnsServer, type LoopbackDnsServer } from "../support/dns-server";
import { rollupMismatches as mismatches } from "../support/segments";
import { startZeroBounceStandin, type ZeroBounceStandin } from "../support/zerobounce-standin";

// Its own database: one test shows an answer held until the catalogue version moves, which no
// other file's changes may move in between.
const database = await createTestDatabase("leadmarket_segments");
process.env.DATABASE_URL = database.url;

const { db, pool } = await import("@/lib/db");
const { GET: getSegment } = await import("@/app/api/categories/[id]/segment/route");
const { importLeadsCsv } = await import("@/lib/leads/import");
const { insertLeads } = await import("@/lib/leads/insert");
const { createCategoryWithLeads, makeLeads } = await import("@/prisma/demo-data");
const { FACETS, US_STATES, VOCABULARIES } = await import("@/lib/segments/vocabularies");
const { callJson } = await import("../support/routes");
const { recheckDueLeads } = await import("@/lib/leads/recheck");
const { MailDomainChecker } = await import("@/lib/verification/mail-domain");
const { ZeroBounce } = await import("@/lib/verification/zerobounce");

type Answer = {
  count: number;
  facets: Record<string, Record<string, number>>;
  packages: Record<string, { available: boolean }>;
};

let categoryId: string;
let dns: LoopbackDnsServer;
let zeroBounce: ZeroBounceStandin;
const DAY = 86_400_000;

beforeAll(async () => {
  categoryId = await createCategoryWithLeads(
    pool(),
    { title: "Software & SaaS" },
    { usa: 1200, uk: 300 },
    11,
  );
  dns = await startDnsServer();
  zeroBounce = await startZeroBounceStandin();
});

afterAll(async () => {
  await dns.close();
  await zeroBounce.close();
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

/**
 * One run of the re-check worker over every due lead of the database: each lead's domain accepts
 * mail but the `dead` ones (NXDOMAIN), and the provider finds the `refused` addresses invalid (the
 * rest valid).
 */
async function recheck({ dead = [], refused = [] }: { dead?: string[]; refused?: string[] }) {
  const { rows } = await pool().query<{ domain: string }>(
    "SELECT DISTINCT split_part(email, '@', 2) AS domain FROM leads",
  );
  dns.zone.clear();
  for (const { domain } of rows) {
    if (!dead.includes(domain)) dns.zone.set(domain, { mx: [{ exchange: "mx.mail.test", priority: 10 }] });
  }
  zeroBounce.results.clear();
  for (const email of refused)
    zeroBounce.results.set(email, { status: "invalid", sub_status: "mailbox_not_found" });
  return recheckDueLeads({
    domains: new MailDomainChecker({ servers: [{ host: dns.host, port: dns.port }], queryTimeoutMs: 1000 }),
    provider: new ZeroBounce({ apiKey: zeroBounce.apiKey, apiUrl: zeroBounce.url }),
    ratePerSecond: 0,
    monthlyLimit: null,
    batchesPerMinute: 6000,
  });
}

const sellableLeads = async () =>
  (
    await pool().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM leads WHERE lead_sellable(quarantined_at, email_status, notice_status)",
    )
  ).rows[0].n;

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
             AND lead_sellable(quarantined_at, email_status, notice_status) AND ${where}`,
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

  it("reads a repeated key as its values joined with commas, as the category page does", async () => {
    const commas = await segment("location=USA&region=CA,NY&seniority=manager");
    expect(commas.status).toBe(200);
    expect(commas.body.count).toBeGreaterThan(
      (await segment("location=USA&region=NY&seniority=manager")).body.count,
    );
    const repeated = await segment("location=USA&region=CA&region=NY&seniority=manager");
    expect(repeated).toMatchObject({ status: 200, body: commas.body });
    const mixed = await segment("location=USA&region=CA&region=NY,CA&seniority=manager");
    expect(mixed.body).toEqual(commas.body);
    // Each repeated value is still judged.
    const bad = await segment("region=CA&region=ZZ");
    expect(bad).toMatchObject({ status: 400, body: { errors: { region: "Unknown region: ZZ" } } });
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
    // The cap counts every facet's values together: 40 regions, 8 seniorities and 13 departments
    // are one too many; 12 departments make exactly 60.
    const regions = `region=${US_STATES.slice(0, 40).join(",")}`;
    const seniorities = `seniority=${VOCABULARIES.seniority.join(",")}`;
    const tooMany = await segment(
      `${regions}&${seniorities}&department=${VOCABULARIES.department.join(",")}`,
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ errors: { _: "Choose at most 60 filter values" } });
    const sixty = await segment(
      `${regions}&${seniorities}&department=${VOCABULARIES.department.slice(0, 12).join(",")}`,
    );
    expect(sixty.status).toBe(200);
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
             AND lead_sellable(quarantined_at, email_status, notice_status) AND facet_region IN ('CA', 'TX')
             AND facet_seniority IN ('manager', 'director', 'vp')`,
          [categoryId],
        )
      ).rows[0].n;
    // Three CA managers last verified 40 days ago: due for a re-check, which will find them invalid.
    const held = ["held1@gone-ca.test", "held2@gone-ca.test", "held3@live-ca.test"];
    await insertLeads(
      pool(),
      categoryId,
      held.map((email) => ({
        ...lead(email, { state: "CA", seniority: "Manager", country: "USA" }),
        verifiedAt: new Date(Date.now() - 40 * DAY),
      })) as never,
    );
    const before = (await segment(query)).body;
    expect(before.count).toBe(await exact());
    // The rollup changed behind the version's back (nothing real does this): the held copy answers.
    const fake = `UPDATE category_segments SET leads = leads + $2 WHERE category_id = $1 AND country = 'USA'
      AND region = 'CA' AND seniority = 'manager'`;
    await pool().query(fake, [categoryId, 1000]);
    expect((await segment(query)).body).toEqual(before);
    await pool().query(fake, [categoryId, -1000]);

    // A real change (the re-check worker's verdicts: a dead domain, the provider's "invalid") bumps
    // the version: the next answer has it. Every other due lead is confirmed, which counts the same.
    const result = await recheck({ dead: ["gone-ca.test"], refused: ["held3@live-ca.test"] });
    expect(result).toMatchObject({ invalid: 3, stoppedBy: null });
    expect(result.confirmed).toBeGreaterThan(0);
    const after = (await segment(query)).body;
    expect(after.count).toBe(await exact());
    expect(after.count).toBe(before.count - 3);
    expect(after.facets.region.CA).toBe(before.facets.region.CA - 3);
    expect(await rollupMismatches()).toEqual([]);
  });

  it("stays exact after inserts, quarantine, re-checks, edits and deletes", async () => {
    expect(await rollupMismatches()).toEqual([]);
    // Verified 40 to 130 days ago: all due for a re-check.
    const stale = makeLeads(200, {
      seed: 99,
      category: "Software & SaaS",
      now: new Date(Date.now() - 40 * DAY),
    });
    await insertLeads(pool(), categoryId, stale);
    expect(await rollupMismatches()).toEqual([]);
    await pool().query(
      `UPDATE leads SET quarantined_at = now() WHERE id IN (SELECT id FROM leads WHERE category_id = $1 LIMIT 40)`,
      [categoryId],
    );
    // Some of them refused by the provider, the companies of others gone from the DNS.
    const sellable = await sellableLeads();
    const domainOf = (email: string) => email.split("@")[1];
    const dead = [...new Set(stale.slice(0, 60).map((row) => domainOf(row.email)))].slice(0, 3);
    const refused = stale
      .slice(60)
      .filter((row) => !dead.includes(domainOf(row.email)))
      .filter((_, index) => index % 5 === 0)
      .map((row) => row.email);
    const result = await recheck({ dead, refused });
    expect(result.stoppedBy).toBeNull();
    expect(result.invalid).toBeGreaterThan(refused.length);
    expect(result.confirmed).toBeGreaterThan(0);
    expect(await sellableLeads()).toBe(sellable - result.invalid);
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
      `SELECT count(*)::int AS n FROM leads WHERE category_id = $1 AND country = 'USA' AND lead_sellable(quarantined_at, email_status, notice_status)`,
      [categoryId],
    );
    expect(body.count).toBe(rows[0].n);
    expect(
      FACETS.every((facet) => Object.values(body.facets[facet]).reduce((a, b) => a + b, 0) === body.count),
    ).toBe(true);
  });
});

describe("segment preview", () => {
  it("masks a name as the category previews do: first name and the last name's initial", async () => {
    const { segmentPreview } = await import("@/lib/leads/segment-preview");
    const { findLeadPreview } = await import("@/lib/leads/previews");
    const { rows } = await pool().query<{ id: string }>(
      `UPDATE leads SET first_name = 'Ada', last_name = ' lovelace' WHERE id = (
         SELECT id FROM leads WHERE category_id = $1 AND country = 'USA' AND lead_sellable(quarantined_at, email_status, notice_status)
          ORDER BY verified_at DESC, id LIMIT 1) RETURNING id::text`,
      [categoryId],
    );
    const [first] = await segmentPreview(categoryId, "USA", null);
    expect(first.name).toBe("Ada L.");
    expect((await findLeadPreview(BigInt(rows[0].id)))?.name).toBe("Ada L.");
  });

  it("gives up within its time limit rather than hold a connection", async () => {
    const { segmentPreview } = await import("@/lib/leads/segment-preview");
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
