// Re-checks (docs/product-rules.md, "Verification"): due sellable leads are checked again against
// the loopback DNS server and the ZeroBounce stand-in; an invalid one leaves the counts at once,
// a confirmed one moves verified_at, a provider failure or the month's limit changes no status.
// Own database: a run re-checks every due lead there is, and each test leaves none due.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/database";
import { startDnsServer, type LoopbackDnsServer } from "../support/dns-server";
import { call, callJson } from "../support/routes";
import { startZeroBounceStandin, type ZeroBounceStandin } from "../support/zerobounce-standin";

const database = await createTestDatabase("leadmarket_recheck");
process.env.DATABASE_URL = database.url;

const { db, pool } = await import("@/lib/db");
const { findAnyCategory } = await import("@/lib/categories/public");
const { recheckDueLeads } = await import("@/lib/leads/recheck");
const { signAdminToken } = await import("@/lib/auth/session");
const { GET: overviewRoute } = await import("@/app/api/admin/categories/rechecks/route");
const { POST: recheckNowRoute } = await import("@/app/api/admin/categories/[id]/recheck/route");
const { getStats } = await import("@/lib/dashboard/stats");
const { MailDomainChecker } = await import("@/lib/verification/mail-domain");
const { ZeroBounce } = await import("@/lib/verification/zerobounce");

let dns: LoopbackDnsServer;
let standin: ZeroBounceStandin;
const mx = [{ exchange: "mx.mail.test", priority: 10 }];
const DAY = 86_400_000;

beforeAll(async () => {
  dns = await startDnsServer({
    zone: {
      "ok.test": { mx },
      "null-mx.test": { mx: [{ exchange: "", priority: 0 }] },
      "broken.test": { rcode: "SERVFAIL" },
    },
  });
  standin = await startZeroBounceStandin();
});

afterEach(async () => {
  standin.results.clear();
  standin.calls.length = 0;
  // Every test's leads are its own: the ones left due must not reach the next test's run.
  await db().lead.updateMany({ data: { verifiedAt: new Date() } });
  await db().verifierMonth.deleteMany();
});

afterAll(async () => {
  await dns.close();
  await standin.close();
  await db().$disconnect();
  await pool().end();
  await database.drop();
});

const domains = () =>
  new MailDomainChecker({ servers: [{ host: dns.host, port: dns.port }], queryTimeoutMs: 300 });
const provider = () => new ZeroBounce({ apiKey: standin.apiKey, apiUrl: standin.url });
const run = (options: Partial<Parameters<typeof recheckDueLeads>[0]> = {}) =>
  recheckDueLeads({
    domains: domains(),
    provider: null,
    ratePerSecond: 0,
    monthlyLimit: null,
    batchesPerMinute: 6000,
    ...options,
  });

async function category(title: string, leads: { email: string; daysAgo: number; status?: "valid" }[]) {
  const { id } = await db().category.create({ data: { title } });
  await db().lead.createMany({
    data: leads.map((lead) => ({
      categoryId: id,
      firstName: "A",
      lastName: "B",
      email: lead.email,
      country: "USA" as const,
      verifiedAt: new Date(Date.now() - lead.daysAgo * DAY),
      emailStatus: lead.status ?? "unknown",
    })),
  });
  return id;
}

/** category_check_days as the leads make it (the triggers keep it so, whatever changes them). */
async function expectCheckDaysExact() {
  const query = (sql: string) =>
    pool()
      .query(sql)
      .then(({ rows }) => rows);
  expect(
    await query("SELECT category_id, checked_on::text, leads FROM category_check_days ORDER BY 1, 2"),
  ).toEqual(
    await query(
      `SELECT category_id, lead_checked_on(verified_at, email_checked_at)::text AS checked_on, count(*)::int AS leads
         FROM leads WHERE lead_sellable(quarantined_at, email_status, notice_status) GROUP BY 1, 2 ORDER BY 1, 2`,
    ),
  );
}

async function leadsOf(categoryId: string) {
  const rows = await db().lead.findMany({ where: { categoryId }, orderBy: { email: "asc" } });
  return Object.fromEntries(rows.map((row) => [row.email, row]));
}

describe("re-checks", () => {
  it("without a provider find dead domains invalid at once and call nothing valid", async () => {
    const id = await category("Recheck domains", [
      { email: "a@ok.test", daysAgo: 40, status: "valid" },
      { email: "b@ok.test", daysAgo: 40 },
      { email: "c@gone.test", daysAgo: 40 },
      { email: "d@null-mx.test", daysAgo: 30 },
      { email: "e@broken.test", daysAgo: 40 },
      { email: "f@gone.test", daysAgo: 3 },
    ]);
    expect((await findAnyCategory(id))?.count).toBe(6);
    const before = await leadsOf(id);

    const result = await run();
    expect(result).toEqual({ checked: 4, confirmed: 0, invalid: 2, stoppedBy: null });
    const after = await leadsOf(id);
    expect(after["c@gone.test"]).toMatchObject({
      emailStatus: "invalid",
      emailStatusReason: "no_mail_domain",
    });
    expect(after["d@null-mx.test"]).toMatchObject({ emailStatus: "invalid", emailStatusReason: "null_mx" });
    // Our checks passed: checked now, the status and verification date as they were.
    expect(after["a@ok.test"]).toMatchObject({
      emailStatus: "valid",
      verifiedAt: before["a@ok.test"].verifiedAt,
    });
    expect(after["b@ok.test"].emailStatus).toBe("unknown");
    expect(after["b@ok.test"].emailCheckedAt).not.toBeNull();
    // A resolver failure is no verdict; a lead not yet due is not looked at.
    expect(after["e@broken.test"]).toEqual(before["e@broken.test"]);
    expect(after["f@gone.test"]).toEqual(before["f@gone.test"]);

    // The invalid ones left the count and the per-country counts in the same transaction.
    const shown = await findAnyCategory(id);
    expect(shown?.count).toBe(4);
    expect(shown?.countByLocation.USA).toBe(4);
    const month = await db().verifierMonth.findFirstOrThrow();
    expect(month.invalidFound).toBe(2);
    // The dashboard shows them as found this month.
    expect((await getStats()).invalidFoundThisMonth).toBe(2);

    // A second run finds only the lead whose resolver failed still due, and gives it no verdict.
    expect(await run()).toEqual({ checked: 0, confirmed: 0, invalid: 0, stoppedBy: null });
  });

  it("with the provider take its verdicts; a confirmation moves verified_at", async () => {
    const id = await category("Recheck provider", [
      { email: "valid@ok.test", daysAgo: 40 },
      { email: "catch@ok.test", daysAgo: 40 },
      { email: "gone@ok.test", daysAgo: 40 },
      { email: "maybe@ok.test", daysAgo: 40, status: "valid" },
      { email: "dead@gone.test", daysAgo: 40 },
    ]);
    standin.results.set("catch@ok.test", { status: "catch-all", sub_status: "" });
    standin.results.set("gone@ok.test", { status: "invalid", sub_status: "mailbox_not_found" });
    standin.results.set("maybe@ok.test", { status: "unknown", sub_status: "timeout_exceeded" });
    const started = Date.now();

    const result = await run({ provider: provider() });
    expect(result).toEqual({ checked: 5, confirmed: 2, invalid: 2, stoppedBy: null });
    // Only the addresses our checks left standing went to the provider, in one batch.
    expect(standin.calls).toEqual(["validatebatch:4"]);
    const after = await leadsOf(id);
    expect(after["valid@ok.test"].emailStatus).toBe("valid");
    expect(after["valid@ok.test"].verifiedAt.getTime()).toBeGreaterThanOrEqual(started);
    expect(after["catch@ok.test"].emailStatus).toBe("accept_all");
    expect(after["catch@ok.test"].verifiedAt.getTime()).toBeGreaterThanOrEqual(started);
    expect(after["gone@ok.test"]).toMatchObject({
      emailStatus: "invalid",
      emailStatusReason: "provider:mailbox_not_found",
    });
    expect(after["maybe@ok.test"]).toMatchObject({
      emailStatus: "unknown",
      emailStatusReason: "provider:timeout_exceeded",
    });
    expect(after["maybe@ok.test"].verifiedAt.getTime()).toBeLessThan(started);
    expect(after["dead@gone.test"].emailStatus).toBe("invalid");
    expect((await findAnyCategory(id))?.count).toBe(3);
  });

  it("with domain checks off take the provider's verdicts all the same (it checks the mailbox itself)", async () => {
    const id = await category("Recheck provider, no resolver", [
      { email: "valid@ok.test", daysAgo: 40 },
      { email: "gone@ok.test", daysAgo: 40 },
      { email: "maybe@broken.test", daysAgo: 40 },
    ]);
    standin.results.set("gone@ok.test", { status: "invalid", sub_status: "mailbox_not_found" });
    standin.results.set("maybe@broken.test", { status: "unknown", sub_status: "timeout_exceeded" });
    const result = await run({ domains: new MailDomainChecker({ servers: [] }), provider: provider() });
    expect(result).toEqual({ checked: 3, confirmed: 1, invalid: 1, stoppedBy: null });
    expect(standin.calls).toEqual(["validatebatch:3"]);
    const after = await leadsOf(id);
    expect(after["valid@ok.test"].emailStatus).toBe("valid");
    expect(after["gone@ok.test"].emailStatus).toBe("invalid");
    expect(after["maybe@broken.test"]).toMatchObject({
      emailStatus: "unknown",
      emailStatusReason: "provider:timeout_exceeded",
    });
    expect(after["maybe@broken.test"].emailCheckedAt).not.toBeNull();
    // Checked: nothing is due, so a second run sends nothing (no credits spent again).
    expect(
      (await run({ domains: new MailDomainChecker({ servers: [] }), provider: provider() })).checked,
    ).toBe(0);
    expect(standin.calls).toEqual(["validatebatch:3"]);
  });

  it("leave statuses as they were when the provider fails or the month's limit is reached, and tell the admin", async () => {
    const id = await category("Recheck failures", [
      { email: "x@ok.test", daysAgo: 40, status: "valid" },
      { email: "y@ok.test", daysAgo: 40 },
      { email: "z@gone.test", daysAgo: 40 },
    ]);
    const before = await leadsOf(id);
    standin.failNext(500);
    const failed = await run({ provider: provider() });
    expect(failed.stoppedBy).toBe("Stand-in failure 500");
    const after = await leadsOf(id);
    expect(after["x@ok.test"]).toEqual(before["x@ok.test"]);
    expect(after["y@ok.test"]).toEqual(before["y@ok.test"]);
    // Our own checks still count: the dead domain is invalid.
    expect(after["z@gone.test"].emailStatus).toBe("invalid");
    expect((await db().verifierMonth.findFirstOrThrow()).lastError).toBe("Stand-in failure 500");

    standin.calls.length = 0;
    const limited = await run({ provider: provider(), monthlyLimit: 1 });
    expect(limited.stoppedBy).toMatch(/monthly limit/);
    expect(standin.calls).toEqual([]);
    expect(await leadsOf(id)).toEqual(after);

    // Within the limit the addresses are sent and counted.
    await db().verifierMonth.deleteMany();
    expect((await run({ provider: provider(), monthlyLimit: 2 })).checked).toBe(2);
    expect((await db().verifierMonth.findFirstOrThrow()).sent).toBe(2);
  });

  it("share the due leads between concurrent runs, each checked once", async () => {
    const leads = Array.from({ length: 900 }, (_, i) => ({ email: `p${i}@ok.test`, daysAgo: 40 }));
    await category("Recheck shared", leads);
    const [first, second] = await Promise.all([
      run({ provider: provider(), concurrency: 3 }),
      run({ provider: provider(), concurrency: 3 }),
    ]);
    expect(first.checked + second.checked).toBe(900);
    const sent = standin.calls.reduce((sum, call) => sum + Number(call.split(":")[1]), 0);
    expect(sent).toBe(900);
  });

  it("pace the addresses a second", async () => {
    await category(
      "Recheck paced",
      Array.from({ length: 400 }, (_, i) => ({ email: `r${i}@ok.test`, daysAgo: 40 })),
    );
    const started = Date.now();
    expect((await run({ ratePerSecond: 400 })).checked).toBe(400);
    // Two claims of 200 at 400 a second: the second waits half a second after the first.
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  it("share their paces between runs, as instances do", async () => {
    await category(
      "Recheck shared pace",
      Array.from({ length: 600 }, (_, i) => ({ email: `s${i}@ok.test`, daysAgo: 40 })),
    );
    const started = Date.now();
    // Three claims of 200 at 400 a second in all, whichever run takes them: 0, 0.5 and 1 s (with a
    // pace each, two runs would take them at 0, 0 and 0.5 s).
    const runs = await Promise.all([run({ ratePerSecond: 400 }), run({ ratePerSecond: 400 })]);
    expect(runs[0].checked + runs[1].checked).toBe(600);
    const { rows } = await pool().query<{ last: Date }>(
      "SELECT max(email_checked_at) AS last FROM leads WHERE email LIKE 's%@ok.test'",
    );
    expect(rows[0].last.getTime() - started).toBeGreaterThanOrEqual(950);
  });

  it("bump catalogue_version only when a verdict changes what pages show", async () => {
    await category("Recheck quiet", [
      { email: "q1@ok.test", daysAgo: 40 },
      { email: "q2@ok.test", daysAgo: 40, status: "valid" },
      { email: "info@ok.test", daysAgo: 40 },
    ]);
    const version = async () => (await db().catalogueVersion.findUniqueOrThrow({ where: { id: 1 } })).version;
    const quiet = await version();
    // Our checks pass: checked now (and flagged), nothing a page shows moved, the cache stays.
    expect(await run()).toMatchObject({ checked: 3, invalid: 0 });
    expect(await version()).toBe(quiet);

    await category("Recheck loud", [{ email: "q3@gone.test", daysAgo: 40 }]);
    const loud = await version();
    expect(await run()).toMatchObject({ checked: 1, invalid: 1 });
    expect(await version()).toBeGreaterThan(loud);

    // A provider's confirmation moves verified_at, which the pages show.
    await category("Recheck confirmed", [{ email: "q4@ok.test", daysAgo: 40 }]);
    const confirmed = await version();
    expect(await run({ provider: provider() })).toMatchObject({ checked: 1, confirmed: 1 });
    expect(await version()).toBeGreaterThan(confirmed);
  });
});

describe("re-check now", () => {
  let token: string;
  beforeAll(async () => {
    const admin = await db().admin.create({
      data: { email: "recheck-admin@example.com", passwordHash: "x" },
      select: { id: true, passwordChangedAt: true },
    });
    token = await signAdminToken(admin);
  });

  type Overview = {
    categoryId: string;
    due: number;
    run: { total: number; checked: number; finishedAt: string | null } | null;
  };
  const overviewOf = async (id: string) => {
    const answer = await callJson<Overview[]>(overviewRoute, "/x", { token });
    expect(answer.status).toBe(200);
    return answer.body.find((entry) => entry.categoryId === id)!;
  };

  it("reuses a provider verdict under 24 hours old instead of asking again", async () => {
    const id = await category("Recheck reuse", [
      { email: "fresh@ok.test", daysAgo: 3, status: "valid" },
      { email: "also-fresh@ok.test", daysAgo: 3 },
      { email: "stale@ok.test", daysAgo: 3 },
    ]);
    // A claim's check asked the provider about two of them an hour ago, and about one 25 hours ago.
    await pool().query(
      `UPDATE leads SET provider_checked_at = now() - CASE WHEN email = 'stale@ok.test'
         THEN interval '25 hours' ELSE interval '1 hour' END WHERE category_id = $1`,
      [id],
    );
    expect((await call(recheckNowRoute, "/x", { token, method: "POST", params: { id } })).status).toBe(202);
    const started = Date.now();
    await run({ provider: provider() });
    expect(standin.calls).toEqual(["validatebatch:1"]);
    const after = await leadsOf(id);
    expect(after["stale@ok.test"].providerCheckedAt!.getTime()).toBeGreaterThanOrEqual(started);
    expect(after["fresh@ok.test"].providerCheckedAt!.getTime()).toBeLessThan(started);
    expect((await overviewOf(id)).run).toMatchObject({ total: 3, checked: 3 });
  });

  it("counts due leads per category, queues a sweep of the whole category and shows its progress", async () => {
    const leads = [
      ...Array.from({ length: 450 }, (_, i) => ({ email: `n${i}@ok.test`, daysAgo: 3 })),
      ...Array.from({ length: 50 }, (_, i) => ({ email: `o${i}@ok.test`, daysAgo: 40 })),
      { email: "dead@gone.test", daysAgo: 2 },
      { email: "flaky@broken.test", daysAgo: 2 },
    ];
    const id = await category("Recheck now", leads);
    const other = await category("Recheck later", [{ email: "later@ok.test", daysAgo: 5 }]);
    // Due: sellable and last verified or checked more than 27 days ago.
    expect(await overviewOf(id)).toEqual({ categoryId: id, due: 50, run: null });

    expect((await call(overviewRoute, "/x")).status).toBe(401);
    expect((await call(recheckNowRoute, "/x", { method: "POST", params: { id } })).status).toBe(401);
    expect((await call(recheckNowRoute, "/x", { token, method: "POST", params: { id: "x" } })).status).toBe(
      400,
    );
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect(
      (await call(recheckNowRoute, "/x", { token, method: "POST", params: { id: unknown } })).status,
    ).toBe(404);

    const queued = await callJson<Overview>(recheckNowRoute, "/x", { token, method: "POST", params: { id } });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ due: 50, run: { total: 502, checked: 0, finishedAt: null } });
    const again = await callJson(recheckNowRoute, "/x", { token, method: "POST", params: { id } });
    expect(again.status).toBe(409);

    // Two runs share the sweep; one claim each at first, then the rest.
    const [first, second] = await Promise.all([run({ concurrency: 1 }), run({ concurrency: 1 })]);
    expect(first.checked + second.checked).toBe(501);
    const done = await overviewOf(id);
    expect(done.run).toMatchObject({ total: 502, checked: 502 });
    expect(done.run?.finishedAt).not.toBeNull();
    // The dead domain was found; the resolver failure stays due for the regular runs.
    const after = await leadsOf(id);
    expect(after["dead@gone.test"].emailStatus).toBe("invalid");
    expect(after["flaky@broken.test"].emailCheckedAt).toBeNull();
    expect(after["n1@ok.test"].emailCheckedAt).not.toBeNull();
    expect(done.due).toBe(0);
    // The other category was not swept: its leads are not due.
    expect((await leadsOf(other))["later@ok.test"].emailCheckedAt).toBeNull();
    await expectCheckDaysExact();

    // The due count follows every change to the leads, the cutoff's own day included.
    const cutoff = Date.now() - 27 * DAY;
    await pool().query(
      `UPDATE leads SET email_checked_at = NULL, verified_at = to_timestamp($2 / 1000.0) + (id % 7 - 3) * interval '1 hour'
        WHERE category_id = $1 AND email LIKE 'n%'`,
      [id, cutoff],
    );
    await pool().query(
      `UPDATE leads SET quarantined_at = now() WHERE category_id = $1 AND email LIKE 'n1%'`,
      [id],
    );
    await pool().query(`DELETE FROM leads WHERE category_id = $1 AND email LIKE 'n2%'`, [id]);
    // Imported leads queued for the provider are due whatever their date.
    await pool().query(
      `UPDATE leads SET email_status_reason = 'queued', email_checked_at = NULL, verified_at = now()
        WHERE category_id = $1 AND email LIKE 'n3%'`,
      [id],
    );
    await expectCheckDaysExact();
    const { rows } = await pool().query<{ due: number; queued: number }>(
      `SELECT count(*)::int AS due, count(*) FILTER (WHERE email_status_reason = 'queued')::int AS queued
         FROM leads WHERE category_id = $1 AND lead_sellable(quarantined_at, email_status, notice_status)
          AND (GREATEST(verified_at, email_checked_at) < now() - interval '27 days'
               OR (email_status_reason = 'queued' AND email_checked_at IS NULL))`,
      [id],
    );
    expect(rows[0].due).toBeGreaterThan(rows[0].queued);
    expect(rows[0].queued).toBe(111);
    expect((await overviewOf(id)).due).toBe(rows[0].due);

    // Finished: it can be asked again.
    expect((await callJson(recheckNowRoute, "/x", { token, method: "POST", params: { id } })).status).toBe(
      202,
    );
    await run();
  });

  it("shows progress while the sweep runs, and resumes where the provider stopped without skipping leads", async () => {
    const id = await category(
      "Recheck progress",
      Array.from({ length: 600 }, (_, i) => ({ email: `g${i}@ok.test`, daysAgo: 1 })),
    );
    expect((await callJson(recheckNowRoute, "/x", { token, method: "POST", params: { id } })).status).toBe(
      202,
    );
    // The month's limit is reached at the second claim: the first claim's 200 are counted, the
    // run stops, and the second claim's leads are taken again by the next run.
    const stopped = await run({ provider: provider(), concurrency: 1, monthlyLimit: 200 });
    expect(stopped.stoppedBy).toMatch(/monthly limit/);
    expect((await overviewOf(id)).run).toMatchObject({ total: 600, checked: 200, finishedAt: null });

    const resumed = await run({ provider: provider(), concurrency: 1 });
    expect(resumed.checked).toBe(400);
    expect((await overviewOf(id)).run).toMatchObject({ total: 600, checked: 600 });
    const checked = Object.values(await leadsOf(id)).filter((lead) => lead.emailCheckedAt !== null);
    expect(checked).toHaveLength(600);
  });
});
