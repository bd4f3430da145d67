// The mail outbox: mails are stored with what caused them and survive an SMTP outage. A request
// and a sale made while the SMTP server is down are both delivered, once, after it comes back;
// and the requester's confirmation is capped per recipient per day.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../support/database";
import { call, callJson } from "../support/routes";
import { startSmtpCatcher, type SmtpCatcher } from "../support/smtp";

const database = await createTestDatabase("leadmarket_outbox");
let smtp: SmtpCatcher = await startSmtpCatcher();
const port = Number(new URL(smtp.url).port);
Object.assign(process.env, {
  DATABASE_URL: database.url,
  PAYMENTS_TEST_MODE: "1",
  SMTP_URL: smtp.url,
  CUSTOM_REQUEST_LIMIT: "0",
});

const { POST: submitRequest } = await import("@/app/api/custom-request/route");
const { POST: create } = await import("@/app/api/payment/create/route");
const { POST: testPay } = await import("@/app/api/payment/test/[id]/route");
const { GET: status } = await import("@/app/api/payment/status/[id]/route");
const { POST: privacyRequest } = await import("@/app/api/privacy/requests/route");
const { db, pool } = await import("@/lib/db");
const { startOutboxWorker } = await import("@/lib/mail/outbox");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

let category: string;

beforeAll(async () => {
  category = await createCategoryWithLeads(pool(), { title: "Outbox Sales" }, 1_100, 31);
  await db().settings.createMany({ data: [{ id: 1, notificationEmail: "owner@outbox.test" }] });
  startOutboxWorker();
});

afterAll(async () => {
  await smtp.close();
  await db().$disconnect();
  await pool().end();
  await database.drop();
});

const unique = (label: string) =>
  `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const recipients = (mail: { to?: unknown }) =>
  [mail.to]
    .flat()
    .flatMap((to) => (to as { value?: { address?: string }[] } | undefined)?.value ?? [])
    .map((entry) => entry.address);

function request(email: string, ip = "192.0.2.50") {
  return callJson<{ _id: string }>(submitRequest, "/api/custom-request", {
    json: { name: "Hi Visit http://spam.example now,", email, platforms: ["linkedin"], message: "spam" },
    headers: { "x-forwarded-for": ip },
  });
}

async function buyAndPay(): Promise<void> {
  const created = await callJson<{ paymentId: string; invoiceUrl: string }>(create, "/api/payment/create", {
    json: { categoryId: category, packageType: "starter" },
  });
  expect(created.status).toBe(200);
  const invoiceId = new URL(created.body.invoiceUrl).pathname.split("/").at(-1)!;
  const paid = await call(testPay, `/api/payment/test/${invoiceId}`, {
    params: { id: invoiceId },
    body: new URLSearchParams({ action: "pay" }),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  const npId = new URL(paid.headers.get("location")!).searchParams.get("NP_id")!;
  const key = created.body.paymentId;
  const answer = await callJson(status, `/api/payment/status/${key}?NP_id=${npId}`, { params: { id: key } });
  expect(answer.body).toMatchObject({ paid: true });
}

describe("mail outbox", () => {
  it("delivers a request's and a sale's mails once after an SMTP outage", async () => {
    const errors = vi.spyOn(console, "error");
    await smtp.close();
    const email = `${unique("outage")}@example.com`;
    expect((await request(email)).status).toBe(201);
    await buyAndPay();
    // A privacy request's address is logged masked when its mail fails; other mails name theirs.
    const person = `${unique("private")}@example.com`;
    const asked = await callJson(privacyRequest, "/api/privacy/requests", {
      json: { email: person, kind: "erasure" },
      headers: { "x-forwarded-for": "192.0.2.90" },
    });
    expect(asked.status).toBe(202);

    // Both are stored, and the worker has tried and failed at least once.
    await expect
      .poll(() => db().mailOutbox.count({ where: { status: "pending", attempts: { gt: 0 } } }), {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(3);
    await expect
      .poll(() => db().mailOutbox.count({ where: { recipient: person, attempts: { gt: 0 } } }), {
        timeout: 10_000,
      })
      .toBe(1);
    const logged = errors.mock.calls.map((args) => args.map(String).join(" "));
    errors.mockRestore();
    expect(logged.some((line) => line.includes(`to ${email} failed`))).toBe(true);
    expect(logged.some((line) => line.includes(`to ${person[0]}***@e***.com failed`))).toBe(true);
    expect(logged.filter((line) => line.includes(person))).toEqual([]);

    smtp = await startSmtpCatcher(port);
    const confirmation = await smtp.waitFor((mail) => recipients(mail).includes(email), 30_000);
    const notification = await smtp.waitFor(
      (mail) => mail.subject === `New custom lead request from Hi Visit http://spam.example now,`,
      30_000,
    );
    const sale = await smtp.waitFor(
      (mail) => (mail.subject ?? "").startsWith("New sale: Outbox Sales"),
      30_000,
    );
    expect(recipients(notification)).toEqual(["owner@outbox.test"]);
    expect(recipients(sale)).toEqual(["owner@outbox.test"]);
    expect(confirmation.text).not.toContain("spam.example");

    // Sent once each, even with the worker still polling.
    await expect
      .poll(() => db().mailOutbox.count({ where: { status: "pending" } }), { timeout: 10_000 })
      .toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(smtp.messages.filter((mail) => recipients(mail).includes(email))).toHaveLength(1);
    expect(smtp.messages.filter((mail) => (mail.subject ?? "").startsWith("New sale:"))).toHaveLength(1);
    expect(smtp.messages.filter((mail) => mail.subject?.startsWith("New custom lead request"))).toHaveLength(
      1,
    );
  });

  it("confirms to one address at most 3 times a day, with nothing the requester typed", async () => {
    const email = `${unique("victim")}@example.com`;
    for (let index = 0; index < 5; index += 1) {
      expect((await request(email, `192.0.2.${60 + index}`)).status).toBe(201);
    }
    // The admin hears about all five; the address typed into the form gets three confirmations.
    await expect
      .poll(
        () => smtp.messages.filter((mail) => mail.subject?.startsWith("New custom lead request")).length,
        {
          timeout: 20_000,
        },
      )
      .toBeGreaterThanOrEqual(6);
    await expect
      .poll(() => db().mailOutbox.count({ where: { status: "pending" } }), { timeout: 10_000 })
      .toBe(0);
    const confirmations = smtp.messages.filter((mail) => recipients(mail).includes(email));
    expect(confirmations).toHaveLength(3);
    for (const mail of confirmations) {
      expect(mail.text).not.toMatch(/spam/i);
      expect(mail.text).not.toContain("Hi Visit");
    }
  });
});
