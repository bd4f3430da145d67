// Invoices (docs/product-rules.md, "Invoices") against PostgreSQL, the NOWPayments stand-in and a
// real SMTP server: gapless numbers under concurrency and after a failed attempt, one correction
// then 409, VAT IDs checked per country, VAT included at the seller's rate or reverse-charged, and
// the PDF read back with pdfjs.
import { pdfText } from "../support/pdf";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fromAddress } from "../support/client";
import { paidOrder } from "../support/paid-order";
import { call, callJson } from "../support/routes";
import { startTestStore } from "../support/store";

const store = await startTestStore({
  name: "leadmarket_invoice",
  apiKey: "np-invoice-key",
  ipnSecret: "ipn-invoice",
  env: { ORDER_CREATE_LIMIT: "0", DNS_SERVERS: "off" },
});
const { standin, smtp } = store;

const invoiceRoute = await import("@/app/api/orders/[key]/invoice/route");
const { POST: create } = await import("@/app/api/payment/create/route");
const { GET: orderApi } = await import("@/app/api/orders/[key]/route");
const { db, pool } = await import("@/lib/db");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

const SELLER = {
  sellerLegalName: "LeadMarket Data Ltd",
  sellerAddress: "1 High Street\nLondon EC1A 1AA",
  sellerVatNumber: "GB980780684",
};
const GERMAN = { companyName: "Beispiel GmbH", address: "Hauptstrasse 1\n10115 Berlin", country: "DE" };

type Invoice = { number: number; companyName: string; vatId: string | null; correctedAt: string | null };
type Refusal = { message: string; errors?: Record<string, string> };

let categoryId: string;
let addresses = 0;
const nextAddress = () => fromAddress(`10.61.${Math.floor(++addresses / 250)}.${addresses % 250}`);

beforeAll(async () => {
  categoryId = await createCategoryWithLeads(pool(), { title: "Invoice Leads" }, 1100, 61);
  await db().settings.upsert({ where: { id: 1 }, create: { id: 1, ...SELLER }, update: SELLER });
});

afterAll(store.close);

const buy = (email?: string) => paidOrder(standin, { categoryId, ...(email ? { email } : {}) });

const sendDetails = (key: string, json: unknown) =>
  callJson<Invoice & Refusal>(invoiceRoute.POST, `/api/orders/${key}/invoice`, {
    json,
    params: { key },
    headers: nextAddress(),
  });

const getPdf = (key: string) =>
  call(invoiceRoute.GET, `/api/orders/${key}/invoice`, { params: { key }, headers: nextAddress() });

/** The PDF's text, page by page, each text item on its own line. */
async function pdfTextOf(key: string): Promise<string> {
  const response = await getPdf(key);
  expect(response.status).toBe(200);
  return pdfText(new Uint8Array(await response.arrayBuffer()));
}

const lastNumber = async () =>
  (await db().invoiceCounter.findUnique({ where: { sellerId: 1 } }))?.lastNumber ?? 0;

const setVatRate = (vatRatePercent: number) =>
  db().settings.update({ where: { id: 1 }, data: { vatRatePercent }, select: { id: true } });

describe("invoice numbers", () => {
  it("gives orders invoicing at once consecutive numbers, and a failed attempt gives its number back", async () => {
    const [first, second, third] = await Promise.all([buy(), buy(), buy()]);
    const before = await lastNumber();
    const answers = await Promise.all([sendDetails(first, GERMAN), sendDetails(second, GERMAN)]);
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect(answers.map((answer) => answer.body.number).sort((a, b) => a - b)).toEqual([
      before + 1,
      before + 2,
    ]);

    // A failure inside the invoice's transaction, after its number was taken (here a trigger the
    // test adds refuses the row): the number is not used up.
    await pool().query(`CREATE FUNCTION test_refuse_invoice() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await pool().query(`CREATE TRIGGER test_refuse_invoice BEFORE INSERT ON invoices
      FOR EACH ROW EXECUTE FUNCTION test_refuse_invoice()`);
    // The handler logs the unexpected failure; the test expects it.
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect((await sendDetails(third, GERMAN)).status).toBe(500);
      expect(logged).toHaveBeenCalledTimes(1);
    } finally {
      logged.mockRestore();
      await pool().query("DROP TRIGGER test_refuse_invoice ON invoices");
      await pool().query("DROP FUNCTION test_refuse_invoice()");
    }
    expect(await lastNumber()).toBe(before + 2);
    const retried = await sendDetails(third, GERMAN);
    expect(retried.status).toBe(201);
    expect(retried.body.number).toBe(before + 3);
  });
});

describe("invoice details", () => {
  it("takes one correction, keeping the number, then answers 409", async () => {
    const key = await buy();
    const issued = await sendDetails(key, { ...GERMAN, vatId: null });
    expect(issued.status).toBe(201);
    expect(issued.body.vatId).toBeNull();
    // The same details again (a double submit, here without the empty VAT ID) are no correction.
    const again = await sendDetails(key, { ...GERMAN, vatId: "" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ number: issued.body.number, correctedAt: null });

    const corrected = await sendDetails(key, {
      ...GERMAN,
      companyName: "Beispiel AG",
      vatId: "de 136 695 976",
    });
    expect(corrected.status).toBe(200);
    expect(corrected.body).toMatchObject({
      number: issued.body.number,
      companyName: "Beispiel AG",
      vatId: "DE136695976",
    });
    expect(corrected.body.correctedAt).not.toBeNull();

    const second = await sendDetails(key, { ...GERMAN, companyName: "Beispiel SE" });
    expect(second.status).toBe(409);
    expect(second.body.message).toContain("already corrected once");
    const text = await pdfTextOf(key);
    expect(text).toContain("Beispiel AG");
    expect(text).not.toContain("Beispiel SE");
    // The order page shows the invoice as stored.
    const summary = await callJson<{ invoice: Invoice }>(orderApi, `/api/orders/${key}`, { params: { key } });
    expect(summary.body.invoice).toMatchObject({ number: issued.body.number, companyName: "Beispiel AG" });
  });

  it("refuses malformed details with the field's error, without using a number", async () => {
    const key = await buy();
    const before = await lastNumber();
    for (const [json, field] of [
      [{ ...GERMAN, vatId: "DE12345" }, "vatId"],
      [{ ...GERMAN, vatId: "DE136695977" }, "vatId"],
      [{ ...GERMAN, vatId: "GB980780684" }, "vatId"],
      [{ ...GERMAN, country: "US", vatId: "123456789" }, "vatId"],
      [{ ...GERMAN, country: "XX" }, "country"],
      [{ ...GERMAN, companyName: " " }, "companyName"],
      [{ ...GERMAN, address: "a".repeat(501) }, "address"],
    ] as const) {
      const refused = await sendDetails(key, json);
      expect(refused.status, JSON.stringify(json)).toBe(400);
      expect(Object.keys(refused.body.errors ?? {}), JSON.stringify(json)).toEqual([field]);
    }
    expect((await sendDetails(key, { ...GERMAN, vatId: "DE12345" })).body.errors?.vatId).toBe(
      "Not a valid VAT ID for Germany: check its digits and its DE prefix",
    );
    expect((await sendDetails(key, { ...GERMAN, country: "US", vatId: "1" })).body.errors?.vatId).toBe(
      "No VAT ID format is known for United States: leave it empty",
    );
    expect(await lastNumber()).toBe(before);
    expect((await getPdf(key)).status).toBe(404);
  });

  it("answers 409 for an unpaid order and 404 for a key it does not know", async () => {
    const created = await callJson<{ paymentId: string }>(create, "/api/payment/create", {
      json: { categoryId, packageType: "starter" },
      headers: nextAddress(),
    });
    const unpaid = created.body.paymentId;
    expect((await sendDetails(unpaid, GERMAN)).status).toBe(409);
    expect((await getPdf(unpaid)).status).toBe(409);
    const unknown = `${unpaid.slice(0, -4)}zzzz`;
    expect((await sendDetails(unknown, GERMAN)).status).toBe(404);
    expect((await getPdf(unknown)).status).toBe(404);
  });
});

describe("the invoice PDF", () => {
  it("names seller, buyer and line, and takes VAT at the seller's rate out of the price", async () => {
    await setVatRate(20);
    const key = await buy("invoice-buyer@example.com");
    const british = { companyName: "Acme Widgets Ltd", address: "2 Low Road\nLeeds", country: "GB" };
    const issued = await sendDetails(key, { ...british, vatId: "GB 980 7806 84" });
    expect(issued.status).toBe(201);
    // The rate is the one in force at issue.
    await setVatRate(0);
    const response = await getPdf(key);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename=invoice-${issued.body.number}.pdf`,
    );
    const text = await pdfTextOf(key);
    for (const expected of [
      "LeadMarket Data Ltd",
      "VAT number: GB980780684",
      "Acme Widgets Ltd",
      "United Kingdom",
      String(issued.body.number),
      "Invoice Leads - Starter package",
      "1,000",
      "$10.00",
      "VAT (20%)",
      "$1.67",
      "$8.33",
      "5 USDTTRC20",
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain("Reverse charge");

    const receipt = await smtp.waitFor(
      (mail) =>
        mail.subject?.startsWith("Your LeadMarket receipt") === true && mail.text?.includes(key) === true,
    );
    expect(receipt.text).toContain(`http://localhost:3999/api/orders/${key}/invoice`);
  });

  it("reverse-charges a buyer whose VAT ID is from another country than the seller's", async () => {
    await setVatRate(20);
    const key = await buy();
    const polish = { companyName: "Zakład Łódź Sp. z o.o.", address: "ul. Piotrkowska 1\n90-001 Łódź" };
    expect((await sendDetails(key, { ...polish, country: "PL", vatId: "526-025-02-74" })).status).toBe(201);
    const text = await pdfTextOf(key);
    expect(text).toContain("Reverse charge: no VAT is charged on this supply");
    expect(text).toContain("VAT (reverse charge)");
    expect(text).toContain("$0.00");
    // The buyer's own spelling, beyond the standard PDF fonts' letters.
    expect(text).toContain("Zakład Łódź Sp. z o.o.");
    expect(text).toContain("Poland");
    expect(text).toContain("VAT ID: PL5260250274");
    await setVatRate(0);
  });
});
