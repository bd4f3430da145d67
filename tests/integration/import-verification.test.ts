// The checks of a CSV import (docs/product-rules.md, "Verification"): the status column in vendors'
// spellings, syntax and disposable domains per row, each domain looked up once against a DNS server
// on loopback (DNS_SERVERS), refused rows reported per line with counts per reason, no verdict on
// a DNS failure, one bounded wait for a dead resolver, and leads queued for the provider when one
// is configured. Own database.
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/database";
import { startDnsServer, type LoopbackDnsServer } from "../support/dns-server";
import { startZeroBounceStandin } from "../support/zerobounce-standin";

const database = await createTestDatabase("leadmarket_import_checks");
process.env.DATABASE_URL = database.url;
const mx = [{ exchange: "mx.mail.test", priority: 10 }];
const dns = await startDnsServer({
  zone: {
    "ok.test": { mx },
    "status.test": { mx },
    "batches.test": { mx },
    "a-only.test": { a: ["192.0.2.10"] },
    "gmail.com": { mx },
    "null-mx.test": { mx: [{ exchange: "", priority: 0 }] },
    "broken.test": { rcode: "SERVFAIL" },
    "silent.test": { silent: true },
    "queue.test": { mx },
  },
});
process.env.DNS_SERVERS = dns.address;

const { closeDatabase, db, pool } = await import("@/lib/db");
const { findAnyCategory } = await import("@/lib/categories/public");
const { importLeadsCsv } = await import("@/lib/leads/import");
const { recheckDueLeads } = await import("@/lib/leads/recheck");
const { MailDomainChecker } = await import("@/lib/verification/mail-domain");
const { ZeroBounce } = await import("@/lib/verification/zerobounce");

let dead: LoopbackDnsServer;
beforeAll(async () => {
  dead = await startDnsServer({ neverAnswer: true });
});

afterAll(async () => {
  await dns.close();
  await dead.close();
  await closeDatabase();
  await database.drop();
});

async function newCategory(title: string): Promise<string> {
  return (await db().category.create({ data: { title } })).id;
}

const csv = (lines: string[]) => Readable.from([`${lines.join("\n")}\n`]);

async function leadsOf(categoryId: string) {
  const rows = await db().lead.findMany({ where: { categoryId } });
  return Object.fromEntries(rows.map((row) => [row.email, row]));
}

describe("import checks", () => {
  it("reads the status column in vendors' spellings and refuses a value it does not know, per line", async () => {
    const id = await newCategory("Statuses");
    const spellings = [
      ["valid", "valid"],
      ["Verified", "valid"],
      ["DELIVERABLE", "valid"],
      ["catch-all", "accept_all"],
      ["catch_all", "accept_all"],
      ["Accept-All", "accept_all"],
      ["accept_all", "accept_all"],
      ["risky", "unknown"],
      ["unknown", "unknown"],
      ["", "unknown"],
      ["invalid", "invalid"],
      ["undeliverable", "invalid"],
    ];
    const report = await importLeadsCsv(
      id,
      csv([
        "Email,Email Status",
        ...spellings.map(([status], i) => `s${i}@status.test,${status}`),
        "odd@status.test,maybe?",
      ]),
    );
    expect(report).toMatchObject({
      imported: spellings.length,
      invalidCount: 1,
      invalid: [
        {
          line: spellings.length + 2,
          reason: 'Unknown email status "maybe?" (valid, accept-all, unknown or invalid)',
        },
      ],
      reasons: { email_status: 1, syntax: 0 },
    });
    const leads = await leadsOf(id);
    expect(spellings.map((_, i) => leads[`s${i}@status.test`].emailStatus)).toEqual(
      spellings.map(([, status]) => status),
    );
    // Invalid leads are stored but never counted as sellable, in the count or the rollups.
    expect((await findAnyCategory(id))?.count).toBe(spellings.length - 2);
    const { rows: rollups } = await pool().query(
      `SELECT (SELECT sum(leads)::int FROM category_lead_days WHERE category_id = $1) AS days,
              (SELECT sum(leads)::int FROM category_segments WHERE category_id = $1) AS segments,
              (SELECT count(*)::int FROM category_lead_days WHERE category_id = $1 AND email_status = 'invalid') AS invalid`,
      [id],
    );
    expect(rollups[0]).toEqual({ days: spellings.length - 2, segments: spellings.length - 2, invalid: 0 });

    // The other header spellings of the column.
    for (const header of ["status", "email_status"]) {
      const other = await newCategory(`Header ${header}`);
      await importLeadsCsv(other, csv([`email,${header}`, "h@status.test,catch-all"]));
      expect((await leadsOf(other))["h@status.test"].emailStatus).toBe("accept_all");
    }
  });

  it("refuses rows that fail syntax or domain checks, per line with counts per reason; DNS failures are no verdict", async () => {
    const id = await newCategory("Checks");
    const report = await importLeadsCsv(
      id,
      csv([
        "email,first name,email status",
        "good@ok.test,Good,valid",
        "bad@@ok.test,Syntax,",
        "info@a-only.test,Role,",
        "someone@gmail.com,Free,",
        "temp@mailinator.com,Disposable,valid",
        "lost@gone.test,Gone,valid",
        "none@null-mx.test,Null,",
        "kept@broken.test,Failed,valid",
        "quiet@silent.test,Silent,",
        "late@gone.test,Gone again,",
      ]),
    );
    expect(report).toMatchObject({
      imported: 5,
      duplicates: 0,
      invalidCount: 5,
      invalid: [
        { line: 3, reason: 'Invalid email "bad@@ok.test"' },
        { line: 6, reason: 'Disposable email domain "mailinator.com"' },
        { line: 7, reason: 'Email domain "gone.test" does not exist or has no mail server' },
        { line: 8, reason: 'Email domain "null-mx.test" accepts no mail (null MX)' },
        { line: 11, reason: 'Email domain "gone.test" does not exist or has no mail server' },
      ],
      reasons: { syntax: 1, disposable: 1, no_mail_domain: 2, null_mx: 1, email_status: 0 },
    });
    const leads = await leadsOf(id);
    expect(Object.keys(leads).sort()).toEqual([
      "good@ok.test",
      "info@a-only.test",
      "kept@broken.test",
      "quiet@silent.test",
      "someone@gmail.com",
    ]);
    // Our check ran and passed: stamped, with the imported status (only a provider says valid).
    expect(leads["good@ok.test"]).toMatchObject({ emailStatus: "valid", emailStatusReason: "" });
    expect(leads["good@ok.test"].emailCheckedAt).not.toBeNull();
    expect(leads["info@a-only.test"]).toMatchObject({
      emailStatus: "unknown",
      roleAccount: true,
      freeMail: false,
    });
    expect(leads["info@a-only.test"].emailCheckedAt).not.toBeNull();
    expect(leads["someone@gmail.com"]).toMatchObject({ roleAccount: false, freeMail: true });
    // SERVFAIL and a timeout: imported as they came, not checked.
    expect(leads["kept@broken.test"]).toMatchObject({ emailStatus: "valid", emailCheckedAt: null });
    expect(leads["quiet@silent.test"]).toMatchObject({ emailStatus: "unknown", emailCheckedAt: null });
    // Each domain was asked once; the disposable one and the malformed address never.
    expect(dns.queries.filter((query) => query === "gone.test MX")).toHaveLength(1);
    expect(dns.queries.some((query) => query.startsWith("mailinator.com"))).toBe(false);
    expect((await findAnyCategory(id))?.count).toBe(5);
  });

  it("looks each domain up once across the batches of a large file", async () => {
    const id = await newCategory("Batches");
    const rows = Array.from({ length: 12_000 }, (_, i) => `p${i}@batches.test`);
    expect(await importLeadsCsv(id, csv(["email", ...rows]))).toMatchObject({ imported: 12_000 });
    expect(dns.queries.filter((query) => query.startsWith("batches.test "))).toEqual(["batches.test MX"]);
  });

  it("waits on a dead resolver once for the whole import, then imports without a verdict", async () => {
    const id = await newCategory("Dead resolver");
    // Ten batches of 5,000 rows, each with 50 domains of its own.
    const rows = Array.from({ length: 50_000 }, (_, i) => `p${i}@d${Math.floor(i / 5000)}-${i % 50}.test`);
    const started = Date.now();
    const report = await importLeadsCsv(id, csv(["email", ...rows]), {
      domains: new MailDomainChecker({ servers: [{ host: dead.host, port: dead.port }] }),
      queued: false,
      waitMs: 2000,
    });
    const seconds = (Date.now() - started) / 1000;
    expect(report).toMatchObject({ imported: 50_000, invalidCount: 0 });
    // The batches read once the wait was used up ask nothing: a wait per batch would have asked
    // them all, and waited 2 s for each.
    expect(dead.queries.some((query) => query.startsWith("d0-"))).toBe(true);
    expect(dead.queries.filter((query) => /^d[6-9]-/.test(query))).toEqual([]);
    expect(seconds).toBeLessThan(10);
    const { rows: statuses } = await pool().query(
      `SELECT email_status, email_checked_at IS NULL AS unchecked, count(*)::int AS n FROM leads
       WHERE category_id = $1 GROUP BY 1, 2`,
      [id],
    );
    expect(statuses).toEqual([{ email_status: "unknown", unchecked: true, n: 50_000 }]);

    // The default wait, through the checker DNS_SERVERS configures: a generous bound for "never
    // waits forever" (the bench measures the cost).
    const again = await newCategory("Dead resolver, default wait");
    const defaultStarted = Date.now();
    const other = rows.slice(0, 5000).map((row) => row.replace(".test", ".example"));
    await importLeadsCsv(again, csv(["email", ...other]), {
      domains: new MailDomainChecker({ servers: [{ host: dead.host, port: dead.port }] }),
      queued: false,
    });
    expect((Date.now() - defaultStarted) / 1000).toBeLessThan(15);
  });

  it("queues imported leads for the provider when one is configured; the re-checks take them", async () => {
    const standin = await startZeroBounceStandin();
    try {
      const id = await newCategory("Queued");
      standin.results.set("gone@queue.test", { status: "invalid", sub_status: "mailbox_not_found" });
      const report = await importLeadsCsv(
        id,
        csv([
          "email,email status",
          "fine@queue.test,unknown",
          "gone@queue.test,valid",
          "bad@queue.test,invalid",
        ]),
        { domains: new MailDomainChecker({ servers: [{ host: dns.host, port: dns.port }] }), queued: true },
      );
      expect(report).toMatchObject({ imported: 3 });
      const queued = await leadsOf(id);
      expect(queued["fine@queue.test"]).toMatchObject({ emailStatusReason: "queued", emailCheckedAt: null });
      // An invalid lead is never sold: nothing to ask the provider; our check ran.
      expect(queued["bad@queue.test"]).toMatchObject({ emailStatus: "invalid", emailStatusReason: "" });
      expect(queued["bad@queue.test"].emailCheckedAt).not.toBeNull();

      // The run takes every lead due in this database: these queued two (the other tests' leads were
      // verified today and are not queued).
      const result = await recheckDueLeads({
        domains: new MailDomainChecker({ servers: [{ host: dns.host, port: dns.port }] }),
        provider: new ZeroBounce({ apiKey: standin.apiKey, apiUrl: standin.url }),
        ratePerSecond: 0,
        monthlyLimit: null,
        batchesPerMinute: 6000,
      });
      expect(result).toMatchObject({ checked: 2, confirmed: 1, invalid: 1 });
      const checked = await leadsOf(id);
      expect(checked["fine@queue.test"]).toMatchObject({ emailStatus: "valid", emailStatusReason: "" });
      expect(checked["fine@queue.test"].emailCheckedAt).not.toBeNull();
      expect(checked["gone@queue.test"]).toMatchObject({
        emailStatus: "invalid",
        emailStatusReason: "provider:mailbox_not_found",
      });
      expect((await findAnyCategory(id))?.count).toBe(1);
    } finally {
      await standin.close();
    }
  });
});
