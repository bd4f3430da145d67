// Article 14 notices (docs/product-rules.md, "UK compliance"): a UK lead imported while notices are
// on is not sold until its person's notice has gone out through the real outbox to a real SMTP
// server on loopback; the pace holds the hourly rate and the per-domain allowance; a 5xx refusal
// marks the address invalid; the notice's link shows what we hold and erases the person once.
// Own database.
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/database";
import { call, callJson } from "../support/routes";
import { startSmtpCatcher, type SmtpCatcher } from "../support/smtp";
import { emptyCategory } from "../support/category";
import { recordStatements } from "../support/statements";

const database = await createTestDatabase("leadmarket_notices");
const smtp: SmtpCatcher = await startSmtpCatcher(0, (address) => {
  if (address.startsWith("gone.")) return { code: 550, message: "5.1.1 No such mailbox" };
  if (address.startsWith("later.")) return { code: 451, message: "4.3.0 Try again later" };
  return null;
});
Object.assign(process.env, {
  DATABASE_URL: database.url,
  SMTP_URL: smtp.url,
  PUBLIC_BASE_URL: "https://shop.example",
});

const { closeDatabase, db, pool } = await import("@/lib/db");
const { importLeadsCsv } = await import("@/lib/leads/import");
const { startOutboxWorker } = await import("@/lib/mail/outbox");
const { emailHash } = await import("@/lib/mail/address");
const { noticeFigures, optOutByNotice, queueDueNotices, readNoticeLink } =
  await import("@/lib/privacy/notices");
const { signAdminToken } = await import("@/lib/auth/session");
const { verifyLinkToken } = await import("@/lib/auth/link-token");
const settingsRoute = await import("@/app/api/admin/settings/route");
const { POST: optOutRoute } = await import("@/app/api/privacy/notices/opt-out/route");

const FAST = { perHour: 3_600_000, perDomainPerHour: 50 };
const SELLER = {
  sellerLegalName: "LeadMarket Ltd",
  sellerAddress: "1 High Street\nLondon EC1A 1AA",
  sellerIcoNumber: "ZA123456",
  sellerPrivacyEmail: "privacy@leadmarket.example",
};

beforeAll(async () => {
  await db().settings.create({ data: { id: 1, ...SELLER } });
  startOutboxWorker();
});

afterAll(async () => {
  await smtp.close();
  await closeDatabase();
  await database.drop();
});

let titles = 0;
const newCategory = (): Promise<string> => emptyCategory(pool(), `Notices ${++titles}`);

const header = "First Name,Last Name,Email,Country,Verified At";
const row = (email: string, country = "UK") => `Ann,Lee,${email},${country},2026-11-20`;

async function importRows(categoryId: string, rows: string[], source = "Company websites") {
  const report = await importLeadsCsv(
    categoryId,
    Readable.from([`${[header, ...rows].join("\n")}\n`]),
    undefined,
    source,
  );
  expect(report.imported).toBe(rows.length);
}

async function noticeStatuses(categoryId: string): Promise<Record<string, string>> {
  const { rows } = await pool().query<{ email: string; notice_status: string }>(
    "SELECT email, notice_status::text FROM leads WHERE category_id = $1 ORDER BY email",
    [categoryId],
  );
  return Object.fromEntries(rows.map((lead) => [lead.email, lead.notice_status]));
}

/** The category's count, and the sum of its rollup by day (kept by the same trigger). */
async function counts(categoryId: string): Promise<{ count: number; days: number }> {
  const { rows } = await pool().query<{ count: number; days: number }>(
    `SELECT c.count, COALESCE((SELECT sum(leads)::int FROM category_lead_days WHERE category_id = c.id), 0) AS days
       FROM categories c WHERE c.id = $1`,
    [categoryId],
  );
  return rows[0];
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const tokenIn = (text: string): string => {
  const url = /https:\/\/shop\.example\/privacy\/notice\?token=(\S+)/.exec(text);
  if (!url) throw new Error("no opt-out link in the notice");
  return decodeURIComponent(url[1]);
};

const mailTo = (address: string) =>
  smtp.waitFor((mail) => mail.to !== undefined && JSON.stringify(mail.to).includes(address));

describe("privacy notices", () => {
  it("keep an imported UK lead off sale until its notice is sent, then sell it", async () => {
    const category = await newCategory();
    await importRows(category, [row("ann@acme.co.uk"), row("bob@acme.co.uk"), row("cy@usa.example", "USA")]);
    expect(await noticeStatuses(category)).toEqual({
      "ann@acme.co.uk": "due",
      "bob@acme.co.uk": "due",
      "cy@usa.example": "not_required",
    });
    // Only the USA lead is sellable: counted, and in the rollups.
    expect(await counts(category)).toEqual({ count: 1, days: 1 });

    expect(await queueDueNotices(FAST)).toBe(2);
    expect(await noticeStatuses(category)).toMatchObject({
      "ann@acme.co.uk": "queued",
      "bob@acme.co.uk": "queued",
    });
    const mail = await mailTo("ann@acme.co.uk");
    expect(mail.subject).toBe("LeadMarket Ltd holds your business contact details");
    expect(mail.text).toContain("LeadMarket Ltd, 1 High Street, London EC1A 1AA");
    expect(mail.text).toContain("ZA123456");
    expect(mail.text).toContain("Where they came from: Company websites.");
    expect(mail.text).toContain("legitimate interests");
    expect(mail.text).toContain("privacy@leadmarket.example");
    expect(mail.text).toContain("it works for 60 days");
    tokenIn(mail.text!);
    await mailTo("bob@acme.co.uk");
    await until(async () => (await counts(category)).count === 3, "the notified leads to go on sale");
    expect(await counts(category)).toEqual({ count: 3, days: 3 });
    expect(await noticeStatuses(category)).toMatchObject({
      "ann@acme.co.uk": "sent",
      "bob@acme.co.uk": "sent",
    });
    const { rows } = await pool().query(
      `SELECT n.email_domain, n.sent_at IS NOT NULL AS sent, m.status FROM privacy_notices n
         JOIN leads l ON l.id = n.lead_id JOIN mail_outbox m ON m.id = n.mail_id WHERE l.category_id = $1`,
      [category],
    );
    expect(rows).toEqual([
      { email_domain: "acme.co.uk", sent: true, status: "sent" },
      { email_domain: "acme.co.uk", sent: true, status: "sent" },
    ]);
    // Nothing is due any more.
    expect(await queueDueNotices(FAST)).toBe(0);
    const figures = await noticeFigures(true);
    expect(figures.sentThisMonth).toBeGreaterThanOrEqual(2);
  });

  it("queue at most a domain's hourly allowance, and no more than the hourly pace", async () => {
    const category = await newCategory();
    const busy = Array.from({ length: 60 }, (_, index) => row(`p${index}@busy.co.uk`));
    const others = Array.from({ length: 5 }, (_, index) => row(`q@other${index}.co.uk`));
    await importRows(category, [...busy, ...others]);
    expect(await queueDueNotices(FAST)).toBe(55);
    // The busy domain had its 50 this hour; its other 10 wait, off sale.
    expect(await queueDueNotices(FAST)).toBe(0);
    const waiting = Object.values(await noticeStatuses(category)).filter((status) => status === "due");
    expect(waiting).toHaveLength(10);
    // An hour later the domain may have 50 more.
    await pool().query(
      "UPDATE privacy_notices SET queued_at = queued_at - interval '61 minutes' WHERE email_domain = 'busy.co.uk'",
    );
    expect(await queueDueNotices(FAST)).toBe(10);

    // 3,600 an hour is one a second: booking 5 seconds ahead takes about 5, then the pace is full.
    const paced = await newCategory();
    await importRows(
      paced,
      Array.from({ length: 30 }, (_, index) => row(`r@paced${index}.co.uk`)),
    );
    await pool().query("DELETE FROM paces WHERE name = 'privacy-notices'");
    const slow = { perHour: 3600, perDomainPerHour: 50 };
    const started = Date.now();
    const first = await queueDueNotices(slow, 5000);
    expect(first).toBeGreaterThanOrEqual(5);
    expect(first).toBeLessThanOrEqual(6);
    // The second claim gets only what the pace freed meanwhile: a unit a second.
    const second = await queueDueNotices(slow, 5000);
    expect(first + second).toBeLessThanOrEqual(6 + Math.ceil((Date.now() - started) / 1000));
    await pool().query("DELETE FROM categories WHERE id = $1", [paced]);
  });

  it("queue a full claim of 500 in a few statements, each mail its own lead's and notice's", async () => {
    const category = await newCategory();
    await importRows(
      category,
      Array.from({ length: 500 }, (_, index) => row(`n${index}@many${index % 20}.co.uk`)),
    );
    await pool().query("DELETE FROM paces WHERE name = 'privacy-notices'");
    // What any pooled connection sends while the claim runs (the outbox's senders, busy with
    // earlier tests' mails meanwhile, insert nothing).
    let claimed = 0;
    const sent = await recordStatements(async () => {
      claimed = await queueDueNotices(FAST);
    });
    expect(claimed).toBe(500);
    const inserts = sent.filter((statement) => /^\s*INSERT\b/i.test(statement.text)).length;
    // An insert per mail and one per notice made it over a thousand round trips, which on a loaded
    // machine outlived its transaction's 15 s.
    expect(inserts).toBeLessThan(10);
    const { rows } = await pool().query<{ id: string; email: string; recipient: string; text: string }>(
      `SELECT n.id, l.email, m.recipient, m.mail->>'text' AS text
         FROM privacy_notices n JOIN leads l ON l.id = n.lead_id JOIN mail_outbox m ON m.id = n.mail_id
        WHERE l.category_id = $1`,
      [category],
    );
    // The outbox's senders need not deliver them all before the next test.
    await pool().query(
      `UPDATE mail_outbox SET status = 'logged' WHERE status = 'pending' AND id IN (
         SELECT n.mail_id FROM privacy_notices n JOIN leads l ON l.id = n.lead_id WHERE l.category_id = $1)`,
      [category],
    );
    expect(rows).toHaveLength(500);
    expect(rows.filter((notice) => notice.recipient !== notice.email)).toEqual([]);
    // Each mail's opt-out link names its own notice.
    const linked = await Promise.all(
      rows.map(async (notice) => (await verifyLinkToken("leadmarket-notice", tokenIn(notice.text))).sub),
    );
    expect(linked).toEqual(rows.map((notice) => notice.id));
    await pool().query("DELETE FROM categories WHERE id = $1", [category]);
  });

  it("mark an address invalid when SMTP refuses its notice for good, and try again after an outage", async () => {
    const category = await newCategory();
    await importRows(category, [row("gone.person@refuses.co.uk"), row("later.person@slow.co.uk")]);
    // The retried mail is old enough that this attempt is the outbox's last.
    await pool().query("DELETE FROM paces WHERE name = 'privacy-notices'");
    expect(await queueDueNotices(FAST)).toBe(2);
    await pool().query(
      `UPDATE mail_outbox SET created_at = now() - interval '25 hours'
        WHERE kind = 'privacy-notice' AND recipient = 'later.person@slow.co.uk'`,
    );
    await until(async () => {
      const { rows } = await pool().query(
        "SELECT 1 FROM mail_outbox WHERE kind = 'privacy-notice' AND status = 'pending' AND attempts = 0",
      );
      return rows.length === 0;
    }, "both notices to be tried");
    const { rows } = await pool().query(
      `SELECT l.email, l.email_status::text, l.email_status_reason, l.notice_status::text, m.status, m.attempts,
              n.bounced_at IS NOT NULL AS bounced
         FROM leads l JOIN privacy_notices n ON n.lead_id = l.id JOIN mail_outbox m ON m.id = n.mail_id
        WHERE l.category_id = $1 ORDER BY l.email`,
      [category],
    );
    expect(rows).toEqual([
      {
        email: "gone.person@refuses.co.uk",
        email_status: "invalid",
        email_status_reason: expect.stringMatching(/^Privacy notice refused: .*550/),
        notice_status: "queued",
        status: "refused",
        attempts: 1,
        bounced: true,
      },
      // Not delivered within the outbox's 24 hours: due again, for a new notice.
      {
        email: "later.person@slow.co.uk",
        email_status: "unknown",
        email_status_reason: "",
        notice_status: "due",
        status: "failed",
        attempts: 1,
        bounced: false,
      },
    ]);
    expect(await counts(category)).toEqual({ count: 0, days: 0 });
    await pool().query("DELETE FROM categories WHERE id = $1", [category]);
  });

  it("open a page of what we hold, and erase the person once from its button", async () => {
    const elsewhere = await newCategory();
    await importRows(elsewhere, [row("dee@optout.co.uk", "USA")]);
    const category = await newCategory();
    await importRows(category, [row("dee@optout.co.uk")]);
    await pool().query("DELETE FROM paces WHERE name = 'privacy-notices'");
    expect(await queueDueNotices(FAST)).toBe(1);
    const token = tokenIn((await mailTo("dee@optout.co.uk")).text!);

    const link = await readNoticeLink(token);
    expect(link.state).toBe("valid");
    if (link.state !== "valid") return;
    // Both categories' records of the address.
    expect(link.held).toHaveLength(2);
    expect(link.held[0].fields).toContainEqual(["Email", "dee@optout.co.uk"]);

    // A tampered link is refused with a clear message, and erases nobody.
    const tampered = `${token.slice(0, -3)}${token.endsWith("AAA") ? "BBB" : "AAA"}`;
    const refused = await callJson<{ message: string }>(optOutRoute, "/api/privacy/notices/opt-out", {
      json: { token: tampered },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/not valid/);
    expect((await readNoticeLink(tampered)).state).toBe("invalid");
    // After 60 days the link has expired: a clear 410, and the page says so.
    const later = new Date(Date.now() + 61 * 86_400_000);
    await expect(optOutByNotice(token, later)).rejects.toMatchObject({ status: 410 });
    expect((await readNoticeLink(token, later)).state).toBe("expired");

    const done = await callJson(optOutRoute, "/api/privacy/notices/opt-out", { json: { token } });
    expect(done).toMatchObject({ status: 200, body: { success: true, state: "completed" } });
    const { rows } = await pool().query("SELECT 1 FROM leads WHERE email = 'dee@optout.co.uk'");
    expect(rows).toHaveLength(0);
    const erased = await db().erasedEmail.findUnique({ where: { emailHash: emailHash("dee@optout.co.uk") } });
    expect(erased).not.toBeNull();
    // A reused link: the same answer, said so, and the page tells the person they are out.
    const again = await callJson(optOutRoute, "/api/privacy/notices/opt-out", { json: { token } });
    expect(again).toMatchObject({ status: 200, body: { state: "already_completed" } });
    expect((await readNoticeLink(token)).state).toBe("opted_out");
    expect((await noticeFigures(true)).optedOutThisMonth).toBe(1);
    // Bad bodies are a clear 400.
    expect((await call(optOutRoute, "/api/privacy/notices/opt-out", { json: {} })).status).toBe(400);
  });

  it("wait while the seller's identity is incomplete; once turned off, UK leads sell without them", async () => {
    const category = await newCategory();
    await db().settings.update({ where: { id: 1 }, data: { sellerIcoNumber: "" } });
    await importRows(category, [row("eve@waits.co.uk"), row("fay@waits.co.uk")]);
    expect(await queueDueNotices(FAST)).toBe(0);
    await db().settings.update({ where: { id: 1 }, data: { sellerIcoNumber: SELLER.sellerIcoNumber } });

    const admin = await db().admin.create({
      data: { email: "owner@notices.test", passwordHash: "x" },
      select: { id: true, passwordChangedAt: true },
    });
    const token = await signAdminToken(admin);
    const saveNotices = (on: boolean) =>
      callJson<{ privacyNotices: boolean }>(settingsRoute.PATCH, "/api/admin/settings", {
        token,
        method: "PATCH",
        json: { privacyNotices: on },
      });
    const settings = (await saveNotices(false)).body;
    expect(settings.privacyNotices).toBe(false);
    expect(await counts(category)).toEqual({ count: 2, days: 2 });
    expect(await noticeStatuses(category)).toEqual({
      "eve@waits.co.uk": "not_required",
      "fay@waits.co.uk": "not_required",
    });
    // Imported while off: on sale at once.
    await importRows(category, [row("gus@waits.co.uk")]);
    expect(await counts(category)).toEqual({ count: 3, days: 3 });
    expect((await noticeFigures(false)).enabled).toBe(false);
    expect((await saveNotices(true)).body.privacyNotices).toBe(true);
  });
});
