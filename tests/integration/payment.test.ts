// The purchase API against a NOWPayments stand-in: server-side prices, invoice creation and its
// failures, status by invoice id and NP_id, signed callbacks, monotonic settlement, one-time
// allocation and the sale notification. Runs in its own database so Settings can be changed freely.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signLikeNowPayments } from "../support/nowpayments-standin";
import { createHmac } from "node:crypto";
import { fromAddress } from "../support/client";
import { call, callJson } from "../support/routes";
import { startTestStore } from "../support/store";

const store = await startTestStore({
  name: "leadmarket_pay",
  apiKey: "np-env-key",
  ipnSecret: "ipn-secret-1",
});
const { standin, smtp } = store;

const { POST: create } = await import("@/app/api/payment/create/route");
const { GET: status } = await import("@/app/api/payment/status/[id]/route");
const { POST: ipn } = await import("@/app/api/payment/ipn/route");
const { POST: testPay } = await import("@/app/api/payment/test/[id]/route");
const { GET: download } = await import("@/app/api/leads/download/[key]/route");
const { db, pool } = await import("@/lib/db");
const { encryptSecret } = await import("@/lib/settings/crypto");
const { NowPaymentsProvider } = await import("@/lib/payments/nowpayments");
const { ProviderError } = await import("@/lib/payments/provider");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

type Created = { success: boolean; paymentId: string; invoiceUrl: string };
type Status = { success: boolean; status: string; amount: number; paid: boolean };

let marketing: string;
let tiny: string;

beforeAll(async () => {
  marketing = await createCategoryWithLeads(pool(), { title: "Pay Marketing" }, 1500, 11);
  tiny = await createCategoryWithLeads(pool(), { title: "Pay Tiny" }, 40, 12);
  await db().settings.upsert({
    where: { id: 1 },
    update: { notificationEmail: "sales@example.com", enableNotifications: true },
    create: { id: 1, notificationEmail: "sales@example.com", enableNotifications: true },
  });
});

afterAll(store.close);

// Each purchase comes from its own address, so the per-address order limit stays out of the way
// except where a test is about it.
let addresses = 0;
const nextAddress = () => `10.1.${Math.floor(++addresses / 250)}.${addresses % 250}`;

async function buy(categoryId = marketing, extra: Record<string, unknown> = {}) {
  const result = await callJson<Created>(create, "/api/payment/create", {
    json: { categoryId, packageType: "starter", ...extra },
    headers: fromAddress(nextAddress()),
  });
  expect(result.status).toBe(200);
  return result.body;
}

const order = (downloadKey: string) => db().order.findUniqueOrThrow({ where: { downloadKey } });
const invoiceOf = async (downloadKey: string) => (await order(downloadKey)).invoiceId!;
const check = (id: string, address = nextAddress()) =>
  callJson<Status>(status, `/api/payment/status/${id}`, {
    params: { id },
    headers: fromAddress(address),
  });
/** The returning tab's check: its key with the NP_id the provider appended. */
const checkReturn = (key: string, npId: string | number) =>
  callJson<Status>(status, `/api/payment/status/${key}?NP_id=${npId}`, {
    params: { id: key },
    headers: fromAddress(nextAddress()),
  });
// The provider is asked about one id at most once a minute; this lets that minute pass.
const aMinutePasses = () => pool().query("DELETE FROM throttle_events WHERE true");
const sendIpn = (body: string, signature?: string) =>
  call(ipn, "/api/payment/ipn", {
    body,
    headers: { "content-type": "application/json", ...(signature ? { "x-nowpayments-sig": signature } : {}) },
  });
const allocated = (orderId: string) => db().orderLead.count({ where: { orderId } });

describe("POST /api/payment/create", () => {
  it("records the order at the server's price and opens an invoice for it", async () => {
    const created = await buy(marketing, {
      amount: 0.01,
      leadCount: 999999,
      leadTitle: "Injected",
      selectedPackage: "premium",
    });
    expect(created).toMatchObject({ success: true });
    // The answer's paymentId is the download key, never the provider's invoice id.
    expect(created.paymentId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await order(created.paymentId);
    expect(created.invoiceUrl).toBe(`${standin.url.replace("/v1", "")}/payment/?iid=${row.invoiceId}`);
    expect(row.invoiceId).toMatch(/^\d{10}$/);
    expect(row).toMatchObject({
      categoryId: marketing,
      leadTitle: "Pay Marketing",
      packageType: "starter",
      leadCount: 1000,
      status: "pending",
      currency: "usd",
      paidAt: null,
    });
    expect(Number(row.amount)).toBe(10);
    const invoice = standin.invoices.get(row.invoiceId!)!;
    expect(invoice).toMatchObject({
      order_id: row.id,
      price_amount: "10",
      price_currency: "usd",
      success_url: `http://localhost:3999/category/${marketing}?package=starter&order=${created.paymentId}`,
      cancel_url: `http://localhost:3999/category/${marketing}?package=starter&order=${created.paymentId}&cancelled=1`,
      ipn_callback_url: "http://localhost:3999/api/payment/ipn",
    });
  });

  it("accepts the product's selectedPackage when packageType is missing", async () => {
    const { status: code, body } = await callJson<Created>(create, "/api/payment/create", {
      json: { categoryId: marketing, selectedPackage: "starter" },
      headers: fromAddress(nextAddress()),
    });
    expect(code).toBe(200);
    expect((await order(body.paymentId)).packageType).toBe("starter");
  });

  it("rejects bad input, unknown categories and packages the category cannot fill", async () => {
    const bad = await callJson(create, "/api/payment/create", {
      json: { categoryId: "x", packageType: "gold" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, errors: { categoryId: "Invalid category id" } });

    const missing = await callJson(create, "/api/payment/create", { json: { categoryId: marketing } });
    expect(missing.status).toBe(400);

    const unknown = await callJson(create, "/api/payment/create", {
      json: { categoryId: "00000000-0000-4000-8000-000000000000", packageType: "starter" },
    });
    expect(unknown.status).toBe(404);

    const before = await db().order.count({ where: { categoryId: { in: [tiny, marketing] } } });
    const tooFew = await callJson<{ message: string }>(create, "/api/payment/create", {
      json: { categoryId: tiny, packageType: "starter" },
    });
    expect(tooFew.status).toBe(409);
    expect(tooFew.body.message).toContain("Pay Tiny has 40 leads, fewer than the 1,000 the Starter package");
    const standard = await callJson(create, "/api/payment/create", {
      json: { categoryId: marketing, packageType: "standard" },
    });
    expect(standard.status).toBe(409);
    expect(await db().order.count({ where: { categoryId: { in: [tiny, marketing] } } })).toBe(before);
  });

  it("turns provider errors and dropped connections into a 502 and a logged, unfinished order", async () => {
    for (const mode of [500, "reset"] as const) {
      standin.failInvoices(mode);
      const started = new Date();
      const failed = await callJson<{ message: string }>(create, "/api/payment/create", {
        json: { categoryId: marketing, packageType: "starter" },
        headers: fromAddress(nextAddress()),
      });
      expect(failed.status).toBe(502);
      expect(failed.body.message).toBe("The payment provider could not create an invoice. Please try again.");
      const row = await db().order.findFirstOrThrow({
        where: { categoryId: marketing, createdAt: { gte: started } },
        orderBy: { createdAt: "desc" },
      });
      expect(row).toMatchObject({ status: "error", invoiceId: null, invoiceUrl: null, paidAt: null });
      expect(row.lastError).toMatch(/NOWPayments POST \/invoice/);
      expect(row.lastError).not.toContain("np-env-key");
    }
    // The next attempt works: nothing was left half-written.
    await buy();
  });

  it("times out a provider that does not answer", async () => {
    standin.failInvoices("hang");
    const provider = new NowPaymentsProvider(standin.url, "np-env-key", 200);
    const attempt = provider.createInvoice({
      orderId: "o",
      priceAmount: 10,
      priceCurrency: "usd",
      description: "d",
      successUrl: "http://x",
      cancelUrl: "http://x",
      ipnCallbackUrl: "http://x",
    });
    await expect(attempt).rejects.toBeInstanceOf(ProviderError);
    await expect(attempt).rejects.toMatchObject({ kind: "unavailable", message: /timed out/ });
  });

  it("uses the key stored in Settings over NOWPAYMENTS_API_KEY", async () => {
    await db().settings.update({
      where: { id: 1 },
      data: { nowPaymentsApiKeyEnc: encryptSecret("wrong-key") },
    });
    const refused = await callJson(create, "/api/payment/create", {
      json: { categoryId: marketing, packageType: "starter" },
      headers: fromAddress(nextAddress()),
    });
    expect(refused.status).toBe(502);
    await db().settings.update({
      where: { id: 1 },
      data: { nowPaymentsApiKeyEnc: encryptSecret("np-env-key") },
    });
    await buy();
    await db().settings.update({ where: { id: 1 }, data: { nowPaymentsApiKeyEnc: null } });
  });

  it("keeps the test payment route unreachable outside test mode", async () => {
    const invoiceId = await invoiceOf((await buy()).paymentId);
    const response = await call(testPay, `/api/payment/test/${invoiceId}`, {
      params: { id: invoiceId },
      body: new URLSearchParams({ action: "pay" }),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(404);
  });
});

describe("payment status and settlement", () => {
  it("follows the payment from key to NP_id to paid, allocating the leads once", async () => {
    const created = await buy();
    const invoiceId = await invoiceOf(created.paymentId);
    const pending = await check(created.paymentId);
    expect(pending).toMatchObject({
      status: 200,
      body: { success: true, status: "pending", amount: 0, paid: false },
    });

    const payment = standin.pay(invoiceId, { status: "waiting" });
    const npId = String(payment.payment_id);
    // The returning tab brings it with the key; from then on it names the order for every client.
    const waiting = await checkReturn(created.paymentId, npId);
    expect(waiting.body).toMatchObject({ status: "waiting", amount: 0, paid: false });
    expect((await order(created.paymentId)).providerPaymentId).toBe(npId);
    expect((await check(npId)).body).toMatchObject({ status: "waiting", paid: false });

    // Polling by key (or invoice id) learns from the provider through the stored payment id,
    // at most once a minute.
    standin.setStatus(npId, "confirming");
    const before = standin.paymentLookups();
    expect((await check(created.paymentId)).body).toMatchObject({ status: "waiting" });
    expect(standin.paymentLookups()).toBe(before);
    await aMinutePasses();
    expect((await check(invoiceId)).body).toMatchObject({ status: "confirming", paid: false });
    expect(standin.paymentLookups()).toBe(before + 1);
    expect(await allocated((await order(created.paymentId)).id)).toBe(0);

    // Four confirmations at once (callbacks racing): one sale.
    standin.setStatus(npId, "finished");
    const confirmation = standin.signedIpn(npId);
    await Promise.all(Array.from({ length: 4 }, () => sendIpn(confirmation.body, confirmation.signature)));
    const results = await Promise.all([check(created.paymentId), check(npId), check(invoiceId)]);
    for (const result of results)
      expect(result.body).toMatchObject({ status: "finished", amount: 10, paid: true });
    const row = await order(created.paymentId);
    expect(row.paidAt).not.toBeNull();
    expect(Number(row.paidAmount)).toBe(10);
    expect(await allocated(row.id)).toBe(1000);

    // Most recently verified first, positions 1..n.
    const { rows } = await pool().query<{ position: number; verified_at: Date }>(
      `SELECT ol.position, l.verified_at FROM order_leads ol JOIN leads l ON l.id = ol.lead_id
       WHERE ol.order_id = $1 ORDER BY ol.position`,
      [row.id],
    );
    expect(rows[0].position).toBe(1);
    expect(rows.at(-1)!.position).toBe(1000);
    const times = rows.map((r) => r.verified_at.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const mail = await smtp.waitFor((m) => (m.text ?? "").includes(`Order: ${row.id}`));
    expect(mail.subject).toBe("New sale: Pay Marketing - Starter (10.00 USD)");
    expect([mail.to].flat()[0]?.text).toBe("sales@example.com");
    // The payment id is the buyer's secret now: the admin's mail names the order instead.
    expect(mail.text).not.toContain(npId);
    expect(mail.text).not.toContain(created.paymentId);
    // One sale, one notification, even with four concurrent confirmations.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.messages.filter((m) => (m.text ?? "").includes(`Order: ${row.id}`))).toHaveLength(1);
  });

  it("counts a confirmed payment as paid only when the price was covered", async () => {
    const short = await buy(marketing, { packageType: "starter" });
    const underpaid = standin.pay(await invoiceOf(short.paymentId), { status: "confirmed", paidRatio: 0.5 });
    // Not shown as a paid status: the buyer's page must not read it as complete.
    expect((await checkReturn(short.paymentId, underpaid.payment_id)).body).toMatchObject({
      status: "partially_paid",
      amount: 0,
      paid: false,
    });
    const row = await order(short.paymentId);
    expect(row.paidAt).toBeNull();
    expect(row.lastError).toMatch(/Received/);
    expect(row.payCurrency).toBe("usdttrc20");
    expect(Number(row.actuallyPaid)).toBe(2.5);

    // The callback reports the received value in dollars: that is the amount, never the price.
    const partial = standin.signedIpn(underpaid.payment_id, { payment_status: "partially_paid" });
    expect((await sendIpn(partial.body, partial.signature)).status).toBe(200);
    const answer = await check(short.paymentId);
    expect(answer.body).toMatchObject({ status: "partially_paid", amount: 4.63, paid: false });
    expect(Number((await order(short.paymentId)).actuallyPaidFiat)).toBe(4.63);

    const cheap = await buy();
    const lowPrice = standin.pay(await invoiceOf(cheap.paymentId), { status: "finished", priceAmount: 1 });
    const cheapAnswer = await checkReturn(cheap.paymentId, lowPrice.payment_id);
    expect(cheapAnswer.body).toMatchObject({ status: "partially_paid", paid: false });
    expect(cheapAnswer.body.amount).toBeLessThan(10);
    expect(await allocated((await order(cheap.paymentId)).id)).toBe(0);
  });

  it("counts sending as paid, answered as confirmed", async () => {
    const created = await buy();
    const payment = standin.pay(await invoiceOf(created.paymentId), { status: "sending" });
    const signed = standin.signedIpn(payment.payment_id);
    expect((await sendIpn(signed.body, signed.signature)).status).toBe(200);
    expect((await check(created.paymentId)).body).toMatchObject({
      status: "confirmed",
      amount: 10,
      paid: true,
    });
    // finished still follows sending; confirmed no longer moves it back.
    for (const next of ["finished", "confirmed"]) {
      const late = standin.signedIpn(payment.payment_id, { payment_status: next });
      await sendIpn(late.body, late.signature);
    }
    expect((await order(created.paymentId)).status).toBe("finished");
  });

  it("answers 404 for unknown ids and 400 for malformed ones, and leaks no lead data", async () => {
    const unknown = await check("999999999");
    expect(unknown.status).toBe(404);
    const malformed = await check("abc$");
    expect(malformed.status).toBe(400);
    const created = await buy();
    const answer = await check(created.paymentId);
    expect(JSON.stringify([created, answer.body])).not.toMatch(/@|linkedin|\+\d/);
  });

  it("ignores an NP_id whose provider record belongs to another invoice", async () => {
    const mine = await buy();
    const other = await buy();
    const payment = standin.pay(await invoiceOf(other.paymentId));
    // The provider claims this payment is for `mine`'s order but from `other`'s invoice.
    payment.order_id = (await order(mine.paymentId)).id;
    expect((await checkReturn(mine.paymentId, payment.payment_id)).body).toMatchObject({
      status: "pending",
      paid: false,
    });
    expect(await order(mine.paymentId)).toMatchObject({ paidAt: null, providerPaymentId: null });
    // Nor does an NP_id the provider ties to another order.
    const stranger = standin.pay(await invoiceOf(other.paymentId));
    expect((await checkReturn(mine.paymentId, stranger.payment_id)).body).toMatchObject({ paid: false });
    expect((await order(mine.paymentId)).providerPaymentId).toBeNull();
  });
});

describe("POST /api/payment/ipn", () => {
  it("refuses unsigned, forged and mis-signed callbacks without changing anything", async () => {
    const created = await buy();
    const payment = standin.pay(await invoiceOf(created.paymentId), { status: "finished" });
    const { body, signature } = standin.signedIpn(payment.payment_id);
    const parsed = JSON.parse(body) as Record<string, unknown>;

    expect((await sendIpn(body)).status).toBe(401);
    expect((await sendIpn(body, "00ff")).status).toBe(401);
    expect((await sendIpn(body, "not-hex")).status).toBe(401);
    // Signed with another secret.
    expect((await sendIpn(body, signLikeNowPayments(parsed, "other-secret"))).status).toBe(401);
    // A valid signature of a different body.
    const forged = JSON.stringify({ ...parsed, price_amount: 9999 });
    expect((await sendIpn(forged, signature)).status).toBe(401);
    // Only the top level sorted: wrong whenever `fee` is present.
    const shallow = Object.fromEntries(Object.entries(parsed).sort(([a], [b]) => a.localeCompare(b)));
    const shallowSig = createHmac("sha512", "ipn-secret-1")
      .update(
        JSON.stringify({
          ...shallow,
          fee: { withdrawalFee: 0.1, serviceFee: 0.5, currency: "usdttrc20", depositFee: 0 },
        }),
      )
      .digest("hex");
    expect((await sendIpn(body, shallowSig)).status).toBe(401);
    expect((await sendIpn("{not json", signature)).status).toBe(401);
    // The Postman docs' form (top-level keys sorted as a replacer list), but with another secret.
    const postmanForm = JSON.stringify(parsed, Object.keys(parsed).sort());
    const otherPostman = createHmac("sha512", "other-secret").update(postmanForm).digest("hex");
    expect((await sendIpn(body, otherPostman)).status).toBe(401);

    const row = await order(created.paymentId);
    expect(row).toMatchObject({ status: "pending", paidAt: null, providerPaymentId: null });
  });

  it("applies signed callbacks; replays and out-of-order ones never downgrade a paid order", async () => {
    const created = await buy();
    const payment = standin.pay(await invoiceOf(created.paymentId), { status: "waiting" });
    const id = payment.payment_id;
    const waiting = standin.signedIpn(id);
    const confirming = standin.signedIpn(id, { payment_status: "confirming" });
    const confirmed = standin.signedIpn(id, { payment_status: "confirmed" });
    const finished = standin.signedIpn(id, { payment_status: "finished" });

    expect((await sendIpn(waiting.body, waiting.signature)).status).toBe(200);
    expect((await order(created.paymentId)).status).toBe("waiting");
    expect((await sendIpn(confirming.body, confirming.signature)).status).toBe(200);
    // An older callback arriving late does not move an unpaid order back either.
    await sendIpn(waiting.body, waiting.signature);
    expect((await order(created.paymentId)).status).toBe("confirming");

    const response = await sendIpn(confirmed.body, confirmed.signature);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, applied: true });
    const paid = await order(created.paymentId);
    expect(paid.status).toBe("confirmed");
    expect(paid.paidAt).not.toBeNull();

    for (const late of [
      waiting,
      confirming,
      confirmed,
      standin.signedIpn(id, { payment_status: "refunded" }),
    ]) {
      expect((await sendIpn(late.body, late.signature)).status).toBe(200);
    }
    await sendIpn(finished.body, finished.signature);
    await sendIpn(confirming.body, confirming.signature);
    // Nor does a late 'confirmed' move a finished sale back.
    await sendIpn(confirmed.body, confirmed.signature);
    const after = await order(created.paymentId);
    expect(after.status).toBe("finished");
    expect(after.paidAt).toEqual(paid.paidAt);
    expect(await allocated(after.id)).toBe(1000);

    // The buyer's status check after a callback needs no provider call and agrees.
    expect((await check(created.paymentId)).body).toMatchObject({ status: "finished", paid: true });
  });

  it("acknowledges signed callbacks for orders it does not know", async () => {
    const created = await buy();
    const payment = standin.pay(await invoiceOf(created.paymentId));
    const stranger = standin.signedIpn(payment.payment_id, {
      order_id: "00000000-0000-4000-8000-000000000000",
    });
    const response = await sendIpn(stranger.body, stranger.signature);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, applied: false });
    // An order id that only looks like a UUID is not looked up (the column would refuse it).
    const misshapen = standin.signedIpn(payment.payment_id, { order_id: "-".repeat(36) });
    const answer = await sendIpn(misshapen.body, misshapen.signature);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ success: true, applied: false });
  });
});

describe("IPN signature forms", () => {
  it("accepts a callback signed over top-level-sorted keys, as the public Postman docs show", async () => {
    const created = await buy();
    const payment = standin.pay(await invoiceOf(created.paymentId), { status: "finished" });
    const { body } = standin.signedIpn(payment.payment_id);
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const postmanSig = createHmac("sha512", "ipn-secret-1")
      .update(JSON.stringify(parsed, Object.keys(parsed).sort()))
      .digest("hex");
    const response = await sendIpn(body, postmanSig);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, applied: true });
    expect((await order(created.paymentId)).paidAt).not.toBeNull();
  });
});

describe("downloads tied to payment", () => {
  it("refuses unpaid and unknown orders", async () => {
    const created = await buy();
    const unpaid = await callJson(download, `/api/leads/download/${created.paymentId}`, {
      params: { key: created.paymentId },
    });
    expect(unpaid.status).toBe(402);
    expect(JSON.stringify(unpaid.body)).not.toMatch(/@/);
    const unknown = await callJson(download, "/api/leads/download/123", { params: { key: "123" } });
    expect(unknown.status).toBe(404);
  });

  it("opens a download only with the key: walking provider ids gets 404", async () => {
    const victim = await buy();
    const invoiceId = await invoiceOf(victim.paymentId);
    const payment = standin.pay(invoiceId, { status: "finished" });
    const signed = standin.signedIpn(payment.payment_id);
    expect((await sendIpn(signed.body, signed.signature)).status).toBe(200);
    const get = (id: string) =>
      call(download, `/api/leads/download/${id}`, {
        params: { key: id },
        headers: fromAddress(nextAddress()),
      });
    for (const providerId of [invoiceId, String(payment.payment_id)]) {
      const refused = await get(providerId);
      expect(refused.status).toBe(404);
      expect(await refused.text()).not.toMatch(/@/);
    }
    // The attacker's own neighbouring ids: none opens the victim's file either.
    for (const offset of [-2, -1, 1, 2]) {
      expect((await get(String(Number(invoiceId) + offset))).status).toBe(404);
      expect((await get(String(payment.payment_id + offset))).status).toBe(404);
    }
    const byKey = await get(victim.paymentId);
    expect(byKey.status).toBe(200);
    expect(byKey.headers.get("content-disposition")).toBe(
      `attachment; filename=leads-${victim.paymentId}.csv`,
    );
    expect(byKey.headers.get("referrer-policy")).toBe("no-referrer");
    expect((await byKey.text()).trimEnd().split("\r\n")).toHaveLength(1001);
    // Status by provider id still works, and answers status and amount only (never the key).
    const byProvider = await check(String(payment.payment_id));
    expect(byProvider.body).toEqual({ success: true, status: "finished", amount: 10, paid: true });
    expect(JSON.stringify(byProvider.body)).not.toContain(victim.paymentId);
  });
});

describe("limits", () => {
  it("answers unknown ids from the database: 30 per address per 10 minutes, then 429", async () => {
    const address = nextAddress();
    const before = standin.paymentLookups();
    const get = (id: string) =>
      call(download, `/api/leads/download/${id}`, {
        params: { key: id },
        headers: fromAddress(address),
      });
    for (let i = 0; i < 30; i += 1) {
      expect((await get(String(5_000_000_000 + i * 7919))).status).toBe(404);
    }
    const refused = await get("5999999999");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(500);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(600);
    // Status checks share the budget; another address has its own.
    expect((await check("A".repeat(43), address)).status).toBe(429);
    expect((await check("A".repeat(43))).status).toBe(404);
    // No download lookup and no key-shaped status lookup reached the provider.
    expect(standin.paymentLookups()).toBe(before);
    // The buyer's own key still works from the limited address.
    const own = await buy();
    expect((await check(own.paymentId, address)).status).toBe(200);
  });

  it("asks the provider about ids it does not know at most 60 times a minute: 1,000 unknown ids", async () => {
    const victim = await buy();
    const invoiceId = Number(await invoiceOf(victim.paymentId));
    const paid = standin.pay(String(invoiceId), { status: "finished" });
    const before = standin.paymentLookups();
    // An attacker with many addresses walks the ids around a real invoice and payment.
    const ids = Array.from({ length: 500 }, (_, i) => [
      invoiceId + (i + 1) * 7,
      paid.payment_id + (i + 1) * 13,
    ]).flat();
    const statuses: number[] = [];
    for (let start = 0; start < ids.length; start += 25) {
      const batch = ids.slice(start, start + 25).map(async (id) => (await check(String(id))).status);
      statuses.push(...(await Promise.all(batch)));
    }
    expect(statuses).toEqual(Array(1000).fill(404));
    expect(standin.paymentLookups() - before).toBeLessThanOrEqual(60);
  }, 120_000);

  it("limits order creation per address and reuses a browser's open checkout", async () => {
    const address = nextAddress();
    const attempt = (packageType: string, cookie?: string) =>
      call(create, "/api/payment/create", {
        json: { categoryId: marketing, packageType },
        headers: { ...fromAddress(address), ...(cookie ? { cookie } : {}) },
      });
    const first = await attempt("starter");
    expect(first.status).toBe(200);
    const cookie = first.headers.get("set-cookie")!.split(";")[0];
    expect(cookie).toMatch(/^lm_browser=[A-Za-z0-9_-]{22}$/);
    const firstKey = ((await first.json()) as Created).paymentId;
    // Same browser, category and package: the open checkout comes back, no new invoice.
    const invoicesBefore = standin.invoices.size;
    const again = await attempt("starter", cookie);
    expect(((await again.json()) as Created).paymentId).toBe(firstKey);
    expect(standin.invoices.size).toBe(invoicesBefore);
    for (let i = 0; i < 9; i += 1) expect((await attempt("starter")).status).toBe(200);
    const refused = await attempt("starter");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(/Too many orders/);
    // Reuse is no new order, so it still works at the limit.
    expect((await attempt("starter", cookie)).status).toBe(200);
  });

  it("validates the optional buyer email", async () => {
    const bad = await callJson(create, "/api/payment/create", {
      json: { categoryId: marketing, packageType: "starter", email: "not-an-email" },
      headers: fromAddress(nextAddress()),
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errors: { email: "Enter a valid email address" } });
    const blank = await buy(marketing, { email: "" });
    expect((await order(blank.paymentId)).buyerEmail).toBeNull();
    const given = await buy(marketing, { email: "  Buyer@Example.COM " });
    expect((await order(given.paymentId)).buyerEmail).toBe("buyer@example.com");
  });
});
