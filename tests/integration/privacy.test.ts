// GDPR requests (docs/product-rules.md) against PostgreSQL, the NOWPayments stand-in and a real
// SMTP server: always 202, a signed single-use 24-hour link, nothing without confirmation, erasure
// end to end (leads in every category, counts, an earlier order's download, a later import, the
// mail outbox, logs, and a grep of the whole database), the access report, limits, the admin list.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fromAddress } from "../support/client";
import { call, callJson } from "../support/routes";
import { startTestStore } from "../support/store";
import { paidOrder } from "../support/paid-order";
import { csvUpload } from "./admin-helpers";

const store = await startTestStore({
  name: "leadmarket_privacy",
  apiKey: "np-priv-key",
  ipnSecret: "ipn-priv",
  env: { ORDER_CREATE_LIMIT: "0" },
});
const { standin, smtp } = store;

const { GET: download } = await import("@/app/api/leads/download/[key]/route");
const { POST: requestRoute } = await import("@/app/api/privacy/requests/route");
const { POST: confirmRoute } = await import("@/app/api/privacy/requests/confirm/route");
const { GET: adminList } = await import("@/app/api/admin/privacy-requests/route");
const categoryLeads = await import("@/app/api/admin/categories/[id]/leads/route");
const { db, pool } = await import("@/lib/db");
const { signAdminToken } = await import("@/lib/auth/session");
const { expirePrivacyRequests, signPrivacyToken } = await import("@/lib/privacy/requests");
const { emailHash, maskEmail } = await import("@/lib/mail/address");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

let token: string;
let addresses = 0;
const nextAddress = () => `10.9.${Math.floor(++addresses / 250)}.${addresses % 250}`;
const HEADER =
  "First Name,Last Name,Title,Company,Email,Phone,City,State,Country,Profile URL,Verified At,Seniority,Department";

// Logged lines, to show no clear-text address of a privacy request reaches the log.
const logged: string[] = [];
for (const level of ["log", "info", "warn", "error"] as const) {
  const original = console[level].bind(console);
  vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
    logged.push(args.map(String).join(" "));
    original(...args);
  });
}

beforeAll(async () => {
  const admin = await db().admin.create({
    data: { email: "priv-admin@example.com", passwordHash: "x" },
    select: { id: true, passwordChangedAt: true },
  });
  token = await signAdminToken(admin);
});

afterAll(store.close);

const importCsv = (categoryId: string, csv: string) =>
  callJson<Record<string, unknown>>(categoryLeads.POST, "/x", {
    token,
    params: { id: categoryId },
    body: csvUpload(csv),
  });

const ask = (email: string, kind: string, address = nextAddress()) =>
  callJson(requestRoute, "/api/privacy/requests", { json: { email, kind }, headers: fromAddress(address) });

const confirm = (confirmToken: string) =>
  callJson<{ kind?: string; state?: string; message?: string }>(
    confirmRoute,
    "/api/privacy/requests/confirm",
    {
      json: { token: confirmToken },
    },
  );

const buy = (categoryId: string) => paidOrder(standin, { categoryId });

async function csvOf(key: string): Promise<string> {
  const response = await call(download, `/api/leads/download/${key}`, {
    params: { key },
    headers: fromAddress(nextAddress()),
  });
  expect(response.status).toBe(200);
  return response.text();
}

const usedMails = new Set<unknown>();

/** The confirmation link's token from the next unread confirmation mail to `email`. */
async function confirmationToken(email: string, subject: string): Promise<string> {
  const mail = await smtp.waitFor(
    (m) => !usedMails.has(m) && m.subject === subject && [m.to].flat()[0]?.text === email,
  );
  usedMails.add(mail);
  const link = /\/privacy\/requests\/confirm\?token=([A-Za-z0-9._%-]+)/.exec(mail.text ?? "");
  expect(link).not.toBeNull();
  return decodeURIComponent(link![1]);
}

/** Tables whose rows, as text, contain `needle` (case-insensitive). */
async function tablesHolding(needle: string): Promise<string[]> {
  const { rows } = await pool().query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  );
  const holding: string[] = [];
  for (const { table_name } of rows) {
    const found = await pool().query(
      `SELECT 1 FROM "${table_name}" t WHERE strpos(lower(t::text), $1) > 0 LIMIT 1`,
      [needle.toLowerCase()],
    );
    if (found.rowCount) holding.push(table_name);
  }
  return holding;
}

// A USA row: the orders below are for the default location, USA, and deliver only its leads.
const person = (email: string, first: string, title: string, verified: string) =>
  `${first},Person,${title},Acme Inc,${email},+1 (212) 555-0100,New York,NY,USA,https://linkedin.example/${first},${verified},Director,Sales`;

describe("asking", () => {
  it("always answers 202, validates the input, and mails a link only to the address asked about", async () => {
    const unknown = await ask("nobody-here@example.org", "access");
    expect(unknown).toMatchObject({ status: 202, body: { success: true } });
    await confirmationToken("nobody-here@example.org", "Confirm your data access request");

    const bad = await ask("not-an-email", "erasure");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errors: { email: "Enter a valid email address" } });
    const badKind = await ask("a@example.org", "delete-everything");
    expect(badKind.status).toBe(400);
    expect(badKind.body).toMatchObject({ errors: { kind: "Choose access or erasure" } });
  });

  it("sends at most 3 mails per email a day and takes 10 requests per address an hour", async () => {
    const address = nextAddress();
    for (let i = 0; i < 4; i += 1)
      expect((await ask("Limited@Example.org", "access", address)).status).toBe(202);
    const queued = await pool().query("SELECT 1 FROM mail_outbox WHERE recipient = 'limited@example.org'");
    expect(queued.rowCount).toBe(3);
    for (let i = 0; i < 6; i += 1)
      expect((await ask(`other${i}@example.org`, "access", address)).status).toBe(202);
    const refused = await ask("eleventh@example.org", "access", address);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});

describe("erasure", () => {
  const EMAIL = "erase.me@example.com";
  let first: string;
  let second: string;
  let orderKey: string;

  beforeAll(async () => {
    first = await createCategoryWithLeads(pool(), { title: "Privacy Finance" }, 1100, 51);
    second = await createCategoryWithLeads(pool(), { title: "Privacy Retail" }, 20, 52);
    const today = new Date().toISOString();
    // Mixed case in the file; verified today, so the person is among the leads an order gets.
    expect(
      (await importCsv(first, `${HEADER}\n${person("Erase.Me@Example.com", "Erin", "CFO", today)}`)).body,
    ).toMatchObject({ imported: 1 });
    expect(
      (await importCsv(second, `${HEADER}\n${person("ERASE.ME@example.com", "Erin", "Buyer", today)}`)).body,
    ).toMatchObject({ imported: 1 });
    orderKey = await buy(first);
    expect(await csvOf(orderKey)).toContain(EMAIL);
  });

  it("does nothing before confirmation, then erases everywhere on confirmation, once", async () => {
    const counts = async () =>
      (
        await db().category.findMany({ where: { id: { in: [first, second] } }, orderBy: { title: "asc" } })
      ).map((category) => category.count);
    expect(await counts()).toEqual([1101, 21]);
    expect((await ask("  Erase.Me@EXAMPLE.com ", "erasure")).status).toBe(202);
    const link = await confirmationToken(EMAIL, "Confirm your erasure request");
    // Unconfirmed: still there.
    expect(await db().lead.count({ where: { email: EMAIL } })).toBe(2);

    const done = await confirm(link);
    expect(done).toMatchObject({ status: 200, body: { success: true, kind: "erasure", state: "completed" } });
    expect(await db().lead.count({ where: { email: { equals: EMAIL, mode: "insensitive" } } })).toBe(0);
    expect(await counts()).toEqual([1100, 20]);
    expect(await db().erasedEmail.findUnique({ where: { emailHash: emailHash(EMAIL) } })).not.toBeNull();

    // Single use: a second click changes nothing more.
    expect((await confirm(link)).body).toMatchObject({ kind: "erasure", state: "already_completed" });

    // The earlier order's download no longer holds the row.
    const csv = await csvOf(orderKey);
    expect(csv.toLowerCase()).not.toContain(EMAIL);
    expect(csv.trim().split("\n")).toHaveLength(1 + 999);

    // A later import skips the address and says so.
    const again = await importCsv(
      second,
      `${HEADER}\n${person("Erase.Me@example.com", "Erin", "Buyer", "2026-01-02")}\n${person("someone.else@example.com", "Sam", "Buyer", "2026-01-02")}`,
    );
    expect(again.body).toMatchObject({ imported: 1, duplicates: 0, suppressed: 1, invalidCount: 0 });
    expect(await db().lead.count({ where: { email: EMAIL } })).toBe(0);

    // Nothing in the whole database holds the address in clear text; nor does the log.
    expect(await tablesHolding(EMAIL)).toEqual([]);
    expect(logged.filter((line) => line.toLowerCase().includes(EMAIL))).toEqual([]);

    // The admin sees the request with a masked email.
    const list = await callJson<{ kind: string; maskedEmail: string; state: string; confirmedAt: string }[]>(
      adminList,
      "/x",
      { token },
    );
    expect(list.body).toContainEqual(
      expect.objectContaining({ kind: "erasure", maskedEmail: "e***@e***.com", state: "completed" }),
    );
    expect(JSON.stringify(list.body).toLowerCase()).not.toContain(EMAIL);
  });

  it("blanks only mail to or naming the whole address, never a longer one that contains it", async () => {
    const { queueMail } = await import("@/lib/mail/outbox");
    const subject = `Neighbours ${Date.now()}`;
    const neighbours = ["jimbob@shop.co", "bob@shop.com", "bob@shop.co.uk", "bob@shop.co-op.org"];
    for (const to of neighbours) {
      await queueMail({ to, subject, text: `Hello ${to}, write to jimbob@shop.co or bob@shop.com.` });
    }
    // The address as a token in the body: at a line's start, in angle brackets, before a full stop.
    await queueMail({ to: "ops@shop.test", subject, text: "From: Bob <bob@shop.co>\nbob@shop.co." });
    await queueMail({ to: "Bob@Shop.co", subject, text: "Your request" });

    expect((await ask("bob@shop.co", "erasure")).status).toBe(202);
    expect(
      (await confirm(await confirmationToken("bob@shop.co", "Confirm your erasure request"))).body,
    ).toMatchObject({
      state: "completed",
    });

    const rows = await db().mailOutbox.findMany({
      where: { mail: { path: ["subject"], equals: subject } },
      orderBy: { id: "asc" },
      select: { recipient: true, mail: true },
    });
    const texts = rows.map((row) => [row.recipient, (row.mail as { text: string }).text]);
    expect(texts).toEqual([
      ...neighbours.map((to) => [to, `Hello ${to}, write to jimbob@shop.co or bob@shop.com.`]),
      ["b***@s***.co", ""],
      ["b***@s***.co", ""],
    ]);
  });

  it("scrubs the whole address from other people's custom requests and from login attempts", async () => {
    const gone = "carol.scrub@shop.co";
    const neighbours = "jcarol.scrub@shop.co, carol.scrub@shop.com and carol.scrub@shop.co.uk";
    const other = await db().customRequest.create({
      data: {
        name: "Dana (for Carol.Scrub@Shop.co)",
        email: "dana@agency.test",
        industry: "Retail",
        role: "carol.scrub@shop.co",
        platform: "linkedin",
        message: `Please leave out CAROL.SCRUB@shop.co, <carol.scrub@shop.co>; carol.scrub@shop.co. Keep ${neighbours}.`,
      },
      select: { id: true },
    });
    await db().loginAttempt.createMany({
      data: [
        { email: gone, ip: "203.0.113.7", success: false },
        { email: "someone@shop.co", ip: "203.0.113.7", success: false },
      ],
    });

    expect((await ask(gone, "erasure")).status).toBe(202);
    expect((await confirm(await confirmationToken(gone, "Confirm your erasure request"))).body).toMatchObject(
      { state: "completed" },
    );

    const masked = maskEmail(gone);
    expect(await db().customRequest.findUnique({ where: { id: other.id } })).toMatchObject({
      name: `Dana (for ${masked})`,
      email: "dana@agency.test",
      role: masked,
      message: `Please leave out ${masked}, <${masked}>; ${masked}. Keep ${neighbours}.`,
    });
    const attempts = await db().loginAttempt.findMany({
      where: { ip: "203.0.113.7" },
      orderBy: { id: "asc" },
      select: { email: true },
    });
    expect(attempts).toEqual([{ email: masked }, { email: "someone@shop.co" }]);
  });

  it("refuses an expired or forged link with a clear message", async () => {
    expect((await ask("late@example.com", "erasure")).status).toBe(202);
    const request = await db().privacyRequest.findFirstOrThrow({
      where: { emailHash: emailHash("late@example.com") },
    });
    const old = await signPrivacyToken(request.id, "erasure", new Date(Date.now() - 25 * 3600 * 1000));
    const expired = await confirm(old);
    expect(expired.status).toBe(410);
    expect(expired.body.message).toContain("expired");
    const forged = await confirm(`${old.slice(0, -4)}AAAA`);
    expect(forged.status).toBe(400);
    expect((await confirm("")).status).toBe(400);
  });

  it("forgets the clear-text email of a request left unconfirmed for 24 hours", async () => {
    expect((await ask("never.confirms@example.com", "access")).status).toBe(202);
    const where = { emailHash: emailHash("never.confirms@example.com") };
    expect(await db().privacyRequest.findFirstOrThrow({ where })).toMatchObject({
      email: "never.confirms@example.com",
      state: "pending",
    });
    expect(await expirePrivacyRequests(new Date(Date.now() + 25 * 3600 * 1000))).toBeGreaterThanOrEqual(1);
    expect(await db().privacyRequest.findFirstOrThrow({ where })).toMatchObject({
      email: null,
      state: "expired",
      emailMasked: "n***@e***.com",
    });
  });
});

describe("access", () => {
  it("mails every field held per category and the orders that delivered it (date and package only)", async () => {
    const EMAIL = "see.me@example.com";
    const finance = await createCategoryWithLeads(pool(), { title: "Access Finance" }, 1050, 61);
    const retail = await createCategoryWithLeads(pool(), { title: "Access Retail" }, 10, 62);
    const today = new Date().toISOString();
    await importCsv(finance, `${HEADER}\n${person("See.Me@example.com", "Sean", "Treasurer", today)}`);
    await importCsv(retail, `${HEADER}\n${person(EMAIL, "Sean", "Store Manager", "2025-03-04")}`);
    const key = await buy(finance);
    expect(await csvOf(key)).toContain(EMAIL);

    expect((await ask(EMAIL, "access")).status).toBe(202);
    const result = await confirm(await confirmationToken(EMAIL, "Confirm your data access request"));
    expect(result.body).toMatchObject({ kind: "access", state: "completed" });
    const mail = await smtp.waitFor((m) => m.subject === "Your LeadMarket data access report");
    expect([mail.to].flat()[0]?.text).toBe(EMAIL);
    const text = mail.text ?? "";
    expect(text).toContain("We hold 2 lead records with this email address");
    expect(text).toContain("Category: Access Finance");
    expect(text).toContain("Category: Access Retail");
    for (const line of [
      "First name: Sean",
      "Last name: Person",
      "Job title: Treasurer",
      "Job title: Store Manager",
      "Company: Acme Inc",
      `Email: ${EMAIL}`,
      "Phone: +1 (212) 555-0100",
      "City: New York",
      "Country: USA",
      "Profile URL: https://linkedin.example/Sean",
      "Seniority: Director",
      "Department: Sales",
      "Verified at: 2025-03-04",
      "Delivered in orders: none",
    ]) {
      expect(text).toContain(line);
    }
    const paidOn = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(
      new Date(),
    );
    expect(text).toContain(`${paidOn} - Starter package`);
    expect(text).not.toContain(key);
    // Nothing was erased, and the request keeps no clear-text address once done.
    expect(await db().lead.count({ where: { email: EMAIL } })).toBe(2);
    const stored = await db().privacyRequest.findFirstOrThrow({ where: { emailHash: emailHash(EMAIL) } });
    expect(stored).toMatchObject({ email: null, state: "completed", emailMasked: "s***@e***.com" });
  });
});
