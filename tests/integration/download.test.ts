// Delivery, driven through the built-in test provider (PAYMENTS_TEST_MODE=1): the test payment
// route's redirect, package columns, identical re-downloads, CSV and Excel, order isolation and the
// 30-day limit. Runs in its own database.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/database";
import { fromAddress } from "../support/client";
import { call, callJson } from "../support/routes";

const database = await createTestDatabase("leadmarket_dl");
// A reader idle for 2 s is dropped (30 s by default), so the test need not wait long.
Object.assign(process.env, {
  DATABASE_URL: database.url,
  PAYMENTS_TEST_MODE: "1",
  DOWNLOAD_IDLE_SECONDS: "2",
});
delete process.env.NOWPAYMENTS_API_KEY;

const { POST: create } = await import("@/app/api/payment/create/route");
const { GET: status } = await import("@/app/api/payment/status/[id]/route");
const { POST: testPay } = await import("@/app/api/payment/test/[id]/route");
const { GET: download } = await import("@/app/api/leads/download/[key]/route");
const { copyPool, db, pool } = await import("@/lib/db");
const { csvCell: cell, csvLine } = await import("@/lib/csv");
const csvCell = (value: string) => cell(value, { keepPhoneNumbers: true });
const { createCategoryWithLeads } = await import("@/prisma/demo-data");
const { NASTY_CELLS } = await import("../support/nasty-cells");

let big: string;
let small: string;

beforeAll(async () => {
  big = await createCategoryWithLeads(pool(), { title: "Download Big" }, 20_000, 21);
  small = await createCategoryWithLeads(pool(), { title: "Download Small" }, 1_200, 22);
});

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
  await copyPool().end();
  await database.drop();
});

function testAction(invoiceId: string, action: string) {
  return call(testPay, `/api/payment/test/${invoiceId}`, {
    params: { id: invoiceId },
    body: new URLSearchParams({ action }),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
}

let addresses = 0;
const nextAddress = () => `10.2.0.${++addresses}`;

function createOrder(categoryId: string, packageType: string) {
  return callJson<{ paymentId: string; invoiceUrl: string }>(create, "/api/payment/create", {
    json: { categoryId, packageType },
    headers: fromAddress(nextAddress()),
  });
}

/**
 * Buys a package through the test provider, the way the browser does: the return address carries
 * the download key and NP_id, and the returning tab checks the key with that NP_id.
 */
async function buyAndPay(categoryId: string, packageType: string) {
  const created = await createOrder(categoryId, packageType);
  expect(created.status).toBe(200);
  const { paymentId: key, invoiceUrl } = created.body;
  const invoiceId = new URL(invoiceUrl).pathname.split("/").at(-1)!;
  expect(invoiceUrl).toBe(`http://localhost:3999/test-payment/${invoiceId}`);
  const paid = await testAction(invoiceId, "pay");
  expect(paid.status).toBe(303);
  const back = new URL(paid.headers.get("location")!);
  expect(`${back.origin}${back.pathname}`).toBe(`http://localhost:3999/category/${categoryId}`);
  expect(back.searchParams.get("package")).toBe(packageType);
  expect(back.searchParams.get("order")).toBe(key);
  const npId = back.searchParams.get("NP_id")!;
  const answer = await callJson(status, `/api/payment/status/${key}?NP_id=${npId}`, { params: { id: key } });
  expect(answer.body).toMatchObject({ success: true, status: "finished", paid: true });
  return { key, invoiceId, npId };
}

async function fetchFile(id: string, format?: "xlsx") {
  const query = format ? `?format=${format}` : `?category=x&count=5`;
  const response = await call(download, `/api/leads/download/${id}${query}`, { params: { key: id } });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

function parseCsv(text: string): string[][] {
  return text
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n")
    .map((line) => line.split(","));
}

describe("test payment mode", () => {
  it("redirects back without NP_id on cancel and refuses forged or unknown ids", async () => {
    const created = await createOrder(small, "starter");
    const key = created.body.paymentId;
    const invoiceId = new URL(created.body.invoiceUrl).pathname.split("/").at(-1)!;
    const cancelled = await testAction(invoiceId, "cancel");
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get("location")).toBe(
      `http://localhost:3999/category/${small}?package=starter&order=${key}&cancelled=1`,
    );
    expect((await testAction(invoiceId, "steal")).status).toBe(400);
    expect((await testAction("test_0000000000000000", "pay")).status).toBe(404);

    const forged = `${invoiceId}_${"0".repeat(32)}`;
    expect((await callJson(status, `/api/payment/status/${forged}`, { params: { id: forged } })).status).toBe(
      404,
    );
    const pending = await callJson(status, `/api/payment/status/${invoiceId}`, { params: { id: invoiceId } });
    expect(pending.body).toMatchObject({ status: "pending", paid: false });
    expect((await fetchFile(key)).response.status).toBe(402);
    expect((await fetchFile(invoiceId)).response.status).toBe(404);
  });
});

describe("GET /api/leads/download/{paymentId}", () => {
  it("streams the starter columns, the same rows on every download, by the key only", async () => {
    const { key, invoiceId, npId } = await buyAndPay(small, "starter");
    const first = await fetchFile(key);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(first.response.headers.get("content-disposition")).toBe(`attachment; filename=leads-${key}.csv`);
    const rows = parseCsv(first.bytes.toString("utf8"));
    expect(rows[0]).toEqual([
      "First Name",
      "Last Name",
      "Title",
      "Company",
      "Email",
      "Email Status",
      "Phone",
      "Phone Status",
      "Phone Screened At",
      "City",
      "State",
      "Country",
      "Source",
      "Collected At",
    ]);
    expect(rows).toHaveLength(1001);

    // The buyer's rows: the category's 1,000 most recently verified, in that order.
    const { rows: expected } = await pool().query<{ email: string }>(
      "SELECT email FROM leads WHERE category_id = $1 ORDER BY verified_at DESC, id LIMIT 1000",
      [small],
    );
    expect(rows.slice(1).map((row) => row[4])).toEqual(expected.map((row) => row.email));

    // New leads verified later do not change an allocated order.
    await pool().query(
      "UPDATE leads SET verified_at = now() WHERE id = (SELECT max(id) FROM leads WHERE category_id = $1)",
      [small],
    );
    const again = await fetchFile(key);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    // The provider's ids are no download keys.
    expect((await fetchFile(invoiceId)).response.status).toBe(404);
    expect((await fetchFile(npId)).response.status).toBe(404);
  });

  it("never delivers an invalid address, and keeps a lead found invalid after the sale in the file, marked", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Download Statuses" }, 1_100, 24);
    // Before the sale: the 50 most recently verified leads are found invalid, 20 others accept-all.
    await pool().query(
      `UPDATE leads SET email_status = 'invalid' WHERE id IN (
         SELECT id FROM leads WHERE category_id = $1 ORDER BY verified_at DESC, id LIMIT 50)`,
      [category],
    );
    await pool().query(
      `UPDATE leads SET email_status = 'accept_all' WHERE id IN (
         SELECT id FROM leads WHERE category_id = $1 AND email_status = 'unknown' ORDER BY id LIMIT 20)`,
      [category],
    );
    const { key, npId } = await buyAndPay(category, "starter");
    const before = parseCsv((await fetchFile(key)).bytes.toString("utf8"));
    expect(before).toHaveLength(1001);
    const statuses = before.slice(1).map((row) => row[5]);
    expect(statuses).not.toContain("invalid");
    expect(new Set(statuses)).toEqual(new Set(["unknown", "accept-all"]));
    expect(statuses.filter((status) => status === "accept-all")).toHaveLength(20);

    // After the sale a delivered lead is found invalid: it stays in the buyer's file, marked.
    const { rows: delivered } = await pool().query<{ lead_id: string }>(
      `SELECT ol.lead_id FROM order_leads ol JOIN orders o ON o.id = ol.order_id
       WHERE o.provider_payment_id = $1 ORDER BY ol.position LIMIT 1`,
      [npId],
    );
    await pool().query("UPDATE leads SET email_status = 'invalid' WHERE id = $1", [delivered[0].lead_id]);
    const after = parseCsv((await fetchFile(key)).bytes.toString("utf8"));
    expect(after).toHaveLength(1001);
    expect(after[1][5]).toBe("invalid");
    expect(after.slice(2)).toEqual(before.slice(2));

    const xlsx = new ExcelJS.Workbook();
    await xlsx.xlsx.load((await fetchFile(key, "xlsx")).bytes as unknown as ArrayBuffer);
    const sheet = xlsx.getWorksheet("Leads")!;
    expect(sheet.getRow(1).getCell(6).value).toBe("Email Status");
    expect(sheet.getRow(2).getCell(6).value).toBe("invalid");
  });

  it("leaves the phone of a TPS or CTPS row empty, and reads a screening over 28 days old as unscreened", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Download Phones" }, 1_000, 25);
    const { key, npId } = await buyAndPay(category, "starter");
    const { rows: delivered } = await pool().query<{ lead_id: string }>(
      `SELECT ol.lead_id FROM order_leads ol JOIN orders o ON o.id = ol.order_id
       WHERE o.provider_payment_id = $1 ORDER BY ol.position LIMIT 5`,
      [npId],
    );
    const set = (index: number, status: string, daysAgo: number) =>
      pool().query(
        `WITH lead AS (UPDATE leads SET phone = '020 7946 0018', phone_e164 = '+442079460018' WHERE id = $1 RETURNING id)
         INSERT INTO lead_phone_screens (lead_id, status, screened_at)
         SELECT id, $2::"PhoneStatus", current_date - $3::int FROM lead`,
        [delivered[index].lead_id, status, daysAgo],
      );
    await set(0, "tps", 2);
    await set(1, "ctps", 2);
    await set(2, "clear", 28);
    await set(3, "clear", 29);
    await set(4, "tps", 29);
    const day = (daysAgo: number) =>
      new Date(Date.now() - daysAgo * 24 * 3600 * 1000).toISOString().slice(0, 10);
    const csv = parseCsv((await fetchFile(key)).bytes.toString("utf8"));
    expect(csv[0].slice(6, 9)).toEqual(["Phone", "Phone Status", "Phone Screened At"]);
    expect(csv.slice(1, 6).map((row) => row.slice(6, 9))).toEqual([
      ["", "tps", day(2)],
      ["", "ctps", day(2)],
      ["020 7946 0018", "clear", day(28)],
      ["020 7946 0018", "unscreened", day(29)],
      // Once on a register, a number stays out of the file until a new screening clears it.
      ["", "unscreened", day(29)],
    ]);
    const xlsx = new ExcelJS.Workbook();
    await xlsx.xlsx.load((await fetchFile(key, "xlsx")).bytes as unknown as ArrayBuffer);
    const sheet = xlsx.getWorksheet("Leads")!;
    expect([7, 8, 9].map((column) => sheet.getRow(1).getCell(column).value)).toEqual([
      "Phone",
      "Phone Status",
      "Phone Screened At",
    ]);
    expect([7, 8].map((column) => sheet.getRow(2).getCell(column).value ?? "")).toEqual(["", "tps"]);
    expect(sheet.getRow(4).getCell(7).value).toBe("020 7946 0018");
  });

  it("adds the standard columns", async () => {
    const { key } = await buyAndPay(big, "standard");
    const rows = parseCsv((await fetchFile(key)).bytes.toString("utf8"));
    expect(rows[0].slice(12, 15)).toEqual(["Profile URL", "Industry", "Company Size"]);
    expect(rows).toHaveLength(10_001);
  });

  it("delivers premium as CSV and as Excel with the advanced columns, only from its own category", async () => {
    const { key } = await buyAndPay(big, "premium");
    const csv = parseCsv((await fetchFile(key)).bytes.toString("utf8"));
    expect(csv[0].slice(15)).toEqual([
      "Seniority",
      "Department",
      "Company Website",
      "Company Revenue",
      "Verified At",
      "Source",
      "Collected At",
    ]);
    expect(csv).toHaveLength(20_001);
    expect(csv[1][19]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const { rows: own } = await pool().query<{ email: string }>(
      "SELECT email FROM leads WHERE category_id = $1",
      [big],
    );
    const emails = new Set(own.map((row) => row.email));
    expect(csv.slice(1).every((row) => emails.has(row[4]))).toBe(true);
    expect(new Set(csv.slice(1).map((row) => row[4])).size).toBe(20_000);

    const xlsx = await fetchFile(key, "xlsx");
    expect(xlsx.response.headers.get("content-type")).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(xlsx.response.headers.get("content-disposition")).toBe(`attachment; filename=leads-${key}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet("Leads")!;
    expect(sheet.rowCount).toBe(20_001);
    expect(sheet.getRow(1).values).toEqual([undefined, ...csv[0]]);
    expect(sheet.getRow(2).getCell(5).value).toBe(csv[1][4]);
    expect(sheet.getRow(20_001).getCell(5).value).toBe(csv[20_000][4]);
  });

  it("writes guarded and quoted cells exactly as csvLine does, in allocation order", async () => {
    // A category of its own: the other tests parse their files naively.
    const nasty = await createCategoryWithLeads(pool(), { title: "Download Nasty" }, 1_000, 23);
    const { key, npId } = await buyAndPay(nasty, "starter");
    const { rows: allocated } = await pool().query<{ lead_id: string }>(
      `SELECT ol.lead_id FROM order_leads ol JOIN orders o ON o.id = ol.order_id
       WHERE o.provider_payment_id = $1 ORDER BY ol.position LIMIT $2`,
      [npId, NASTY_CELLS.length],
    );
    // Every text column of a lead gets a nasty value, a different one per column and lead.
    for (const [index, { lead_id }] of allocated.entries()) {
      const value = (offset: number) => NASTY_CELLS[(index + offset) % NASTY_CELLS.length];
      await pool().query(
        `UPDATE leads SET first_name = $2, last_name = $3, job_title = $4, company = $5, phone = $6,
           city = $7, state = $8, email = $9 WHERE id = $1`,
        [
          lead_id,
          value(0),
          value(1),
          value(2),
          value(3),
          value(4),
          value(5),
          value(6),
          `${index}${value(7)}`,
        ],
      );
    }
    const { rows } = await pool().query<string[]>({
      text: `SELECT l.first_name, l.last_name, l.job_title, l.company, l.email,
               replace(l.email_status::text, '_', '-'), l.phone, l.phone_status::text, '', l.city, l.state,
               l.country::text, l.source,
               to_char(l.collected_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
             FROM order_leads ol JOIN orders o ON o.id = ol.order_id JOIN leads l ON l.id = ol.lead_id
             WHERE o.provider_payment_id = $1 ORDER BY ol.position`,
      values: [npId],
      rowMode: "array",
    });
    const header = [
      "First Name",
      "Last Name",
      "Title",
      "Company",
      "Email",
      "Email Status",
      "Phone",
      "Phone Status",
      "Phone Screened At",
      "City",
      "State",
      "Country",
      "Source",
      "Collected At",
    ];
    const expected = `\uFEFF${csvLine(header)}${rows.map((row) => csvLine(row, { keepPhoneNumbers: true })).join("")}`;
    const file = (await fetchFile(key)).bytes.toString("utf8");
    expect(file).toBe(expected);
    expect(file).toContain(`"'  =HYPERLINK(""http://x"")"`);
  });

  it("gives the COPY connection back when the buyer leaves mid-download", async () => {
    const { key } = await buyAndPay(small, "starter");
    const whole = (await fetchFile(key)).bytes;
    // More abandoned downloads than the COPY pool has connections: a leaked one would leave the
    // last download waiting for ever.
    for (let i = 0; i < 12; i++) {
      const response = await call(download, `/api/leads/download/${key}`, { params: { key } });
      const reader = response.body!.getReader();
      await reader.read();
      await reader.cancel();
    }
    const again = await fetchFile(key);
    expect(again.bytes.equals(whole)).toBe(true);
  });

  it("gives the COPY connection back when the buyer leaves an Excel download midway", async () => {
    const { key } = await buyAndPay(big, "starter");
    for (let i = 0; i < 12; i++) {
      const response = await call(download, `/api/leads/download/${key}?format=xlsx`, {
        params: { key },
      });
      const reader = response.body!.getReader();
      await reader.read();
      await reader.cancel();
    }
    const again = await fetchFile(key, "xlsx");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(again.bytes as unknown as ArrayBuffer);
    expect(workbook.getWorksheet("Leads")!.rowCount).toBeGreaterThan(1);
  });

  it("takes 2 downloads in flight per order and 4 per address, then 429 with Retry-After", async () => {
    const [a, b, c] = [
      await buyAndPay(big, "premium"),
      await buyAndPay(big, "premium"),
      await buyAndPay(big, "premium"),
    ];
    const open = (key: string, address: string) =>
      call(download, `/api/leads/download/${key}`, { params: { key }, headers: fromAddress(address) });
    const held = [await open(a.key, "10.3.0.1"), await open(a.key, "10.3.0.2")];
    const third = await open(a.key, "10.3.0.3");
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await third.json()) as { message: string }).message).toMatch(/already being downloaded 2 times/);
    // 10.3.0.1 holds one of a's; three more of other orders make four, a fifth is refused.
    held.push(await open(b.key, "10.3.0.1"), await open(b.key, "10.3.0.1"), await open(c.key, "10.3.0.1"));
    expect(held.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    const fifth = await open(c.key, "10.3.0.1");
    expect(fifth.status).toBe(429);
    expect(((await fifth.json()) as { message: string }).message).toMatch(/4 downloads in progress/);
    // A download read to its end or abandoned frees its place.
    await held[0].body!.cancel();
    await held[1].arrayBuffer();
    const again = await open(a.key, "10.3.0.3");
    expect(again.status).toBe(200);
    for (const response of [again, ...held.slice(2)]) await response.body!.cancel();
  });

  it("drops a reader that takes nothing for DOWNLOAD_IDLE_SECONDS: connection and places released", async () => {
    const { key } = await buyAndPay(big, "premium");
    const open = () =>
      call(download, `/api/leads/download/${key}`, { params: { key }, headers: fromAddress("10.3.1.1") });
    const stalled = [await open(), await open()];
    expect(stalled.map((response) => response.status)).toEqual([200, 200]);
    expect((await open()).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    // The bodies end in error rather than looking complete.
    for (const response of stalled)
      await expect(response.arrayBuffer()).rejects.toThrow(/took nothing for 2 s/);
    const whole = await open();
    expect(whole.status).toBe(200);
    expect(parseCsv(Buffer.from(await whole.arrayBuffer()).toString("utf8"))).toHaveLength(20_001);
    expect(copyPool().totalCount - copyPool().idleCount).toBe(0);
  });

  it("waits a few seconds for a COPY connection, then answers 503 with Retry-After", async () => {
    const { key } = await buyAndPay(small, "starter");
    const taken = await Promise.all(Array.from({ length: 10 }, () => copyPool().connect()));
    try {
      const started = Date.now();
      const busy = await call(download, `/api/leads/download/${key}`, { params: { key } });
      expect(busy.status).toBe(503);
      expect(Number(busy.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Date.now() - started).toBeLessThan(6_000);
    } finally {
      for (const client of taken) client.release();
    }
    expect((await fetchFile(key)).response.status).toBe(200);
  });

  it("never serves one order's leads through another order's id", async () => {
    const a = await buyAndPay(small, "starter");
    const b = await buyAndPay(big, "starter");
    const fileA = parseCsv((await fetchFile(a.key)).bytes.toString("utf8"));
    const fileB = parseCsv((await fetchFile(b.key)).bytes.toString("utf8"));
    const { rows } = await pool().query<{ email: string }>("SELECT email FROM leads WHERE category_id = $1", [
      small,
    ]);
    const smallEmails = new Set(rows.map((row) => row.email));
    expect(fileA.slice(1).every((row) => smallEmails.has(row[4]))).toBe(true);
    expect(fileB.slice(1).some((row) => smallEmails.has(row[4]))).toBe(false);
  });

  it("works for 30 days after payment, then 410 with a message naming /orders", async () => {
    const { key, invoiceId } = await buyAndPay(small, "starter");
    const row = await db().order.findUniqueOrThrow({ where: { invoiceId } });
    expect(row.downloadExpiresAt!.getTime() - row.paidAt!.getTime()).toBe(30 * 24 * 3600 * 1000);
    await db().order.update({
      where: { invoiceId },
      data: { downloadExpiresAt: new Date(Date.now() - 1000) },
    });
    const response = await callJson<{ message: string }>(download, `/api/leads/download/${key}`, {
      params: { key },
    });
    expect(response.status).toBe(410);
    expect(response.body.message).toContain("http://localhost:3999/orders");
    expect(response.body.message).toContain("Find my orders");
    expect(response.body.message).not.toContain(key);
  });

  it("rejects a bad format or id", async () => {
    const bad = await callJson(download, "/api/leads/download/abc?format=pdf", { params: { key: "abc" } });
    expect(bad.status).toBe(400);
    const badId = await callJson(download, "/api/leads/download/a.b", { params: { key: "a.b" } });
    expect(badId.status).toBe(400);
  });
});

describe("CSV cells", () => {
  it("quotes separators and defuses formulas but keeps phone numbers", () => {
    expect(csvCell('Acme, "Inc"')).toBe('"Acme, ""Inc"""');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("-2+3+cmd|' /C calc'!A0")).toBe("'-2+3+cmd|' /C calc'!A0");
    expect(csvCell("+1 (212) 555-0100")).toBe("+1 (212) 555-0100");
    expect(csvCell("+44 20 1234 5678")).toBe("+44 20 1234 5678");
  });
});
