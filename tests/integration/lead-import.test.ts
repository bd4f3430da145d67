// The CSV import's repeats and erasures (lib/leads/insert.ts): new emails are copied straight into
// leads, possible repeats go through the staging table. Whichever way a row goes, the report, the
// rows kept (the first of two with one email), the count and the day aggregate must be exact.
// Own database.
import { PassThrough, Readable } from "node:stream";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPrivacyNotices } from "../support/notices";
import { createTestDatabase } from "../support/database";
import { emptyCategory } from "../support/category";

const database = await createTestDatabase("leadmarket_import");
process.env.DATABASE_URL = database.url;

const { closeDatabase, db, pool } = await import("@/lib/db");
const { AppError } = await import("@/lib/errors");
const { importLeadsCsv } = await import("@/lib/leads/import");
const { insertLeadStream } = await import("@/lib/leads/insert");
const { emailHash, maskEmail } = await import("@/lib/mail/address");
const { IMPORT_REFUSALS } = await import("@/lib/schemas/admin");
const { confirmPrivacyRequest, signPrivacyToken } = await import("@/lib/privacy/requests");

// UK rows sell from their import here (privacy-notices.test.ts has the notices).
beforeAll(() => setPrivacyNotices(pool(), false));

afterAll(async () => {
  await closeDatabase();
  await database.drop();
});

let titles = 0;
const newCategory = (): Promise<string> => emptyCategory(pool(), `Import ${++titles}`);

/** The report's counts per reason: `counts`, and none of the others. */
const reasons = (counts: Record<string, number> = {}) => ({
  ...Object.fromEntries(IMPORT_REFUSALS.map((code) => [code, 0])),
  ...counts,
});

const importCsv = (categoryId: string, lines: string[]) =>
  importLeadsCsv(categoryId, Readable.from([`${lines.join("\n")}\n`]));

async function existingLead(categoryId: string, email: string, firstName = "Old"): Promise<void> {
  await db().lead.create({
    data: { categoryId, firstName, lastName: "", email, country: "USA", verifiedAt: new Date() },
  });
}

/** Resolves once an import's COPY into leads is under way (its rows not yet committed). */
async function copyIntoLeadsStarted(): Promise<void> {
  for (let tries = 0; ; tries++) {
    const { rows } = await pool().query(
      "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'COPY leads %'",
    );
    if (rows.length > 0) return;
    if (tries > 200) throw new Error("the import's COPY never started");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The category's count and day aggregate agree with its rows. */
async function expectAggregatesExact(categoryId: string, leads: number): Promise<void> {
  expect((await db().category.findUniqueOrThrow({ where: { id: categoryId } })).count).toBe(leads);
  const days = await pool().query(
    `SELECT country, verified_on::text AS day, sum(leads)::int AS leads FROM category_lead_days
     WHERE category_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
    [categoryId],
  );
  const rows = await pool().query(
    `SELECT country, (verified_at AT TIME ZONE 'UTC')::date::text AS day, count(*)::int AS leads
     FROM leads WHERE category_id = $1 AND lead_sellable(quarantined_at, email_status, notice_status) GROUP BY 1, 2 ORDER BY 1, 2`,
    [categoryId],
  );
  expect(days.rows).toEqual(rows.rows);
  expect(rows.rows.reduce((sum, row) => sum + row.leads, 0)).toBe(leads);
}

const firstNames = async (categoryId: string): Promise<Record<string, string>> =>
  Object.fromEntries(
    (await db().lead.findMany({ where: { categoryId }, select: { email: true, firstName: true } })).map(
      (lead) => [lead.email, lead.firstName],
    ),
  );

describe("lead import repeats", () => {
  // First in the file: the read counters are the database's, and no earlier test's backend may
  // still be about to report reads of its own.
  it("reads the category's emails once to tell repeats, and only its new rows to count their facets", async () => {
    const id = await newCategory();
    const lead = (email: string) => ({
      ...{ firstName: "", lastName: "", jobTitle: "", seniority: "", department: "", company: "" },
      ...{ companyWebsite: "", companySize: "", companyRevenue: "", industry: "", phone: "", city: "" },
      ...{ state: "", country: "USA" as const, profileUrl: "", verifiedAt: new Date(), email },
    });
    // One connection, so that its read counts can be made to reach the statistics when wanted.
    const own = new Pool({ connectionString: database.url, max: 1 });
    // Rows of leads read, by scans and through its indexes.
    const leadReads = async (): Promise<number> => {
      await own.query("SELECT pg_stat_force_next_flush()");
      const { rows } = await own.query<{ reads: string }>(
        `SELECT (SELECT seq_tup_read FROM pg_stat_user_tables WHERE relname = 'leads')
              + (SELECT sum(idx_tup_read) FROM pg_stat_user_indexes WHERE relname = 'leads') AS reads`,
      );
      return Number(rows[0].reads);
    };
    try {
      await insertLeadStream(own, id, [Array.from({ length: 5000 }, (_, i) => lead(`held${i}@x.com`))]);
      const { rows } = await own.query<{ leads: number }>("SELECT count(*)::int AS leads FROM leads");
      const before = await leadReads();
      const report = await insertLeadStream(own, id, [[lead("new@x.com"), lead("held7@x.com")]]);
      expect(report).toMatchObject({ received: 2, inserted: 1 });
      // The emails' read (here a scan of the table: it is small), ANALYZE's sample (the whole of a
      // small table) and a few rows more; counting the new rows' facets read the category again.
      expect((await leadReads()) - before).toBeLessThan(2 * rows[0].leads + 50);
    } finally {
      await own.end();
    }
  });

  it("keeps the first of repeats in the file and skips emails the category holds, compared as stored", async () => {
    const id = await newCategory();
    // Stored as they are: the unique key compares the stored text, and imports store lower case.
    await existingLead(id, "back\\slash@x.com");
    await existingLead(id, "Mixed@Case.com");
    await existingLead(id, "plain@x.com");
    const report = await importCsv(id, [
      "email,first name,country,verified at",
      "Back\\Slash@X.com,Dup1,USA,2026-01-02",
      "MIXED@case.com,New1,UK,2026-01-03",
      "mixed@CASE.com,Dup2,UK,2026-01-04",
      "plain@x.com,Dup3,USA,2026-01-02",
      "fresh@x.com,New2,USA,2026-01-02",
      "FRESH@x.com,Dup4,UK,2026-01-05",
      "tab@x.com,New\\t3,USA,2026-01-02",
      "fresh@x.com,Dup5,USA,2026-01-02",
    ]);
    // A backslash is no address character: the row is refused; in a name it is COPY-escaped.
    expect(report).toEqual({
      imported: 3,
      duplicates: 4,
      suppressed: 0,
      invalid: [{ line: 2, reason: 'Invalid email "Back\\Slash@X.com"' }],
      invalidCount: 1,
      reasons: reasons({ syntax: 1 }),
      unknownFacets: expect.any(Object),
      source: null,
    });
    expect(await firstNames(id)).toEqual({
      "back\\slash@x.com": "Old",
      "Mixed@Case.com": "Old",
      "plain@x.com": "Old",
      "mixed@case.com": "New1",
      "fresh@x.com": "New2",
      "tab@x.com": "New\\t3",
    });
    await expectAggregatesExact(id, 6);
  });

  it("re-imports a file over several staged batches as all repeats, and mixes new rows in exactly", async () => {
    const id = await newCategory();
    const header = "email,first name,country,verified at";
    const rows = Array.from(
      { length: 12_000 },
      (_, i) => `p${i}@big.com,First${i},${i % 3 ? "USA" : "UK"},2026-0${1 + (i % 5)}-1${i % 10}`,
    );
    expect(await importCsv(id, [header, ...rows])).toMatchObject({ imported: 12_000, duplicates: 0 });
    expect(await importCsv(id, [header, ...rows])).toMatchObject({
      imported: 0,
      duplicates: 12_000,
      suppressed: 0,
      invalidCount: 0,
    });
    // Old and new rows interleaved, a new email repeated after the old ones: the direct COPY and
    // the staging table take turns, and the first row of each new email wins.
    const mixed = rows.flatMap((row, i) =>
      i % 2 ? [row.replace("First", "Again")] : [row, `n${i}@big.com,New${i},UK,2026-02-01`],
    );
    mixed.push("n0@big.com,Late,USA,2026-02-02", "N2@BIG.COM,Late,USA,2026-02-02");
    expect(await importCsv(id, [header, ...mixed])).toEqual({
      imported: 6000,
      duplicates: 12_002,
      suppressed: 0,
      source: null,
      unknownFacets: expect.any(Object),
      invalid: [],
      invalidCount: 0,
      reasons: reasons(),
    });
    const names = await firstNames(id);
    expect(Object.keys(names)).toHaveLength(18_000);
    expect([names["p1@big.com"], names["p11999@big.com"], names["n0@big.com"], names["n2@big.com"]]).toEqual([
      "First1",
      "First11999",
      "New0",
      "New2",
    ]);
    await expectAggregatesExact(id, 18_000);
  });

  it("treats the same emails in another category as new", async () => {
    const [first, second] = [await newCategory(), await newCategory()];
    const lines = ["email", "a@x.com", "b@x.com", "a@x.com"];
    expect(await importCsv(first, lines)).toMatchObject({ imported: 2, duplicates: 1 });
    expect(await importCsv(second, lines)).toMatchObject({ imported: 2, duplicates: 1 });
    await expectAggregatesExact(first, 2);
    await expectAggregatesExact(second, 2);
  });

  it("skips and counts erased addresses, repeats included", async () => {
    const id = await newCategory();
    await db().erasedEmail.create({ data: { emailHash: emailHash("gone@x.com") } });
    try {
      const report = await importCsv(id, ["email", "Gone@X.com", "kept@x.com", "gone@x.com", "kept@x.com"]);
      expect(report).toMatchObject({ imported: 1, duplicates: 1, suppressed: 2, invalidCount: 0 });
      expect(Object.keys(await firstNames(id))).toEqual(["kept@x.com"]);
      await expectAggregatesExact(id, 1);
    } finally {
      await db().erasedEmail.deleteMany({});
    }
  });

  it("runs two imports into one category one after the other", async () => {
    const id = await newCategory();
    const lines = ["email", ...Array.from({ length: 8000 }, (_, i) => `c${i}@x.com`)];
    const reports = await Promise.all([importCsv(id, lines), importCsv(id, lines)]);
    expect(reports.map((report) => report.imported).sort()).toEqual([0, 8000]);
    expect(reports.map((report) => report.duplicates).sort()).toEqual([0, 8000]);
    await expectAggregatesExact(id, 8000);
  });

  it("an erasure confirmed while an import runs waits for it and removes what it added", async () => {
    const id = await newCategory();
    const email = "mid.import@x.com";
    const upload = new PassThrough();
    const imported = importLeadsCsv(id, upload);
    // More than a batch, so the COPY into leads is under way with the address in it, uncommitted.
    upload.write(`email\n${email}\n${Array.from({ length: 5100 }, (_, i) => `e${i}@x.com`).join("\n")}\n`);
    await copyIntoLeadsStarted();
    const request = await db().privacyRequest.create({
      data: { kind: "erasure", email, emailHash: emailHash(email), emailMasked: maskEmail(email) },
    });
    let erased = false;
    const erasure = confirmPrivacyRequest(await signPrivacyToken(request.id, "erasure")).then((answer) => {
      erased = true;
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(erased).toBe(false);
    upload.end();
    expect(await imported).toMatchObject({ imported: 5101, suppressed: 0 });
    expect(await erasure).toMatchObject({ kind: "erasure", state: "completed" });
    expect(Object.keys(await firstNames(id))).not.toContain(email);
    await expectAggregatesExact(id, 5100);
    await db().erasedEmail.deleteMany({});
  });

  it("answers 409 and keeps nothing when a row of the file was added meanwhile by something else", async () => {
    const id = await newCategory();
    await existingLead(id, "before@x.com");
    const upload = new PassThrough();
    const imported = importLeadsCsv(id, upload);
    const settled = imported.catch((error: unknown) => error);
    // More than a batch, so the COPY into leads is under way.
    upload.write(`email\n${Array.from({ length: 5100 }, (_, i) => `q${i}@x.com`).join("\n")}\n`);
    await copyIntoLeadsStarted();
    // Not through an import (which would wait for this one): the unique key is what notices.
    await db().lead.create({
      data: {
        categoryId: id,
        firstName: "",
        lastName: "",
        email: "late@x.com",
        country: "USA",
        verifiedAt: new Date(),
      },
    });
    upload.end("late@x.com\n");
    const error = await settled;
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      status: 409,
      message: "The category changed during the import; try again",
    });
    expect(await db().lead.count({ where: { categoryId: id } })).toBe(2);
  });
});
