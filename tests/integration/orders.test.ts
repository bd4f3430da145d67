// The buyer's side of an order against the NOWPayments stand-in and a real SMTP server: the receipt
// with a working order link, GET /api/orders/{key}, cancelling a checkout, Find my orders (always
// 202, signed one-hour sign-in link, fresh 30-day links, limits), expiry of abandoned checkouts with
// an injected clock, and background reconciliation. Runs in its own database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromAddress } from "../support/client";
import { call, callJson } from "../support/routes";
import { startTestStore } from "../support/store";

const store = await startTestStore({
  name: "leadmarket_orders",
  apiKey: "np-orders-key",
  ipnSecret: "ipn-orders",
});
const { standin, smtp } = store;

const { POST: create } = await import("@/app/api/payment/create/route");
const { GET: status } = await import("@/app/api/payment/status/[id]/route");
const { POST: ipn } = await import("@/app/api/payment/ipn/route");
const { GET: download } = await import("@/app/api/leads/download/[key]/route");
const { GET: orderApi } = await import("@/app/api/orders/[key]/route");
const { POST: cancel } = await import("@/app/api/orders/[key]/cancel/route");
const { POST: lookup } = await import("@/app/api/orders/lookup/route");
const { db, pool } = await import("@/lib/db");
const { ordersForToken, signOrdersToken } = await import("@/lib/orders/lookup");
const { expireStaleOrders, reconcilePendingOrders } = await import("@/lib/orders/maintenance");
const { getStats } = await import("@/lib/dashboard/stats");
const { signAdminToken } = await import("@/lib/auth/session");
const { GET: salesList } = await import("@/app/api/admin/sales/route");
const { GET: saleDetail } = await import("@/app/api/admin/sales/[id]/route");
const { POST: recheck } = await import("@/app/api/admin/sales/[id]/recheck/route");
const { POST: resendReceipt } = await import("@/app/api/admin/sales/[id]/resend-receipt/route");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

type Created = { success: boolean; paymentId: string; invoiceUrl: string };

let category: string;
let addresses = 0;
const nextAddress = () => `10.3.${Math.floor(++addresses / 250)}.${addresses % 250}`;
const HOUR = 3600 * 1000;

beforeAll(async () => {
  // Room for a second starter of one buyer: leads a buyer's email bought are never sold to it again.
  category = await createCategoryWithLeads(pool(), { title: "Orders Finance" }, 2200, 31);
});

afterAll(store.close);

async function buy(email?: string): Promise<string> {
  const result = await callJson<Created>(create, "/api/payment/create", {
    json: { categoryId: category, packageType: "starter", ...(email === undefined ? {} : { email }) },
    headers: fromAddress(nextAddress()),
  });
  expect(result.status).toBe(200);
  return result.body.paymentId;
}

const orderOf = (key: string) => db().order.findUniqueOrThrow({ where: { downloadKey: key } });

/** Pays the order's invoice on the stand-in and delivers the signed callback. */
async function pay(key: string, status = "finished") {
  const payment = standin.pay((await orderOf(key)).invoiceId!, { status });
  const signed = standin.signedIpn(payment.payment_id);
  const response = await call(ipn, "/api/payment/ipn", {
    body: signed.body,
    headers: { "content-type": "application/json", "x-nowpayments-sig": signed.signature },
  });
  expect(response.status).toBe(200);
  return payment;
}

const summary = (key: string, address = nextAddress()) =>
  callJson<Record<string, unknown>>(orderApi, `/api/orders/${key}`, {
    params: { key },
    headers: fromAddress(address),
  });
const askForOrders = (email: string, address = nextAddress()) =>
  callJson(lookup, "/api/orders/lookup", { json: { email }, headers: fromAddress(address) });
const mailsTo = (address: string) =>
  smtp.messages.filter((mail) => [mail.to].flat().some((to) => to?.text === address));

describe("receipt and order page API", () => {
  it("mails a receipt on first payment whose link opens the order and its download", async () => {
    const key = await buy("receipt@example.com");
    expect((await summary(key)).body).toMatchObject({ status: "pending", paidAt: null, expiresAt: null });
    await pay(key);
    const mail = await smtp.waitFor(
      (m) => m.subject === "Your LeadMarket receipt: Orders Finance - Starter package",
    );
    expect([mail.to].flat()[0]?.text).toBe("receipt@example.com");
    const text = mail.text ?? "";
    expect(text).toContain("Category: Orders Finance");
    expect(text).toContain("Package: Starter");
    expect(text).toContain("Leads: 1,000");
    expect(text).toContain("Amount paid: 10.00 USD");
    expect(text).toMatch(/work until \w+ \d+, \d{4} \(UTC\)/);
    expect(text).toContain("more than 5%");
    const link = /http:\/\/localhost:3999\/order\/([A-Za-z0-9_-]{43})/.exec(text);
    expect(link?.[1]).toBe(key);

    await expect.poll(async () => (await orderOf(key)).receiptSentAt).not.toBeNull();
    const row = await orderOf(key);
    const answer = await summary(link![1]);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
    expect(answer.body).toEqual({
      categoryTitle: "Orders Finance",
      segment: "",
      emailQuality: "any",
      // Nothing was left out: the buyer bought nothing before and gave no exclusion list.
      excluded: "",
      packageType: "starter",
      leadCount: 1000,
      amount: 10,
      status: "paid",
      paidAt: row.paidAt!.toISOString(),
      expiresAt: new Date(row.paidAt!.getTime() + 30 * 24 * HOUR).toISOString(),
      replacement: null,
      swaps: { replaced: 0, notReplaced: 0, latest: [] },
      invoice: null,
      optOuts: 0,
    });
    const file = await call(download, `/api/leads/download/${key}`, { params: { key } });
    expect(file.status).toBe(200);
    expect((await file.text()).trimEnd().split("\r\n")).toHaveLength(1001);

    // A repeated confirmation sends no second receipt.
    await pay(key, "finished");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailsTo("receipt@example.com")).toHaveLength(1);
  });

  it("sends no receipt without an email, and answers 404 for provider ids and unknown keys", async () => {
    const key = await buy();
    const payment = await pay(key);
    expect((await orderOf(key)).receiptSentAt).toBeNull();
    expect((await summary(String(payment.payment_id))).status).toBe(404);
    expect((await summary((await orderOf(key)).invoiceId!)).status).toBe(404);
    expect((await summary("B".repeat(43))).status).toBe(404);
    expect((await summary("bad$key")).status).toBe(400);
  });

  it("cancels an unpaid checkout so the polling stops, and never a paid one", async () => {
    const key = await buy();
    const cancelled = await callJson(cancel, `/api/orders/${key}/cancel`, {
      method: "POST",
      params: { key },
    });
    expect(cancelled.body).toMatchObject({ success: true, status: "cancelled", paid: false });
    const check = await callJson(status, `/api/payment/status/${key}`, { params: { id: key } });
    expect(check.body).toMatchObject({ status: "cancelled", paid: false });
    // The invoice can still be paid: a later payment wins over the cancel.
    await pay(key, "finished");
    expect((await orderOf(key)).paidAt).not.toBeNull();
    const late = await callJson(cancel, `/api/orders/${key}/cancel`, { method: "POST", params: { key } });
    expect(late.body).toMatchObject({ status: "finished", paid: true });
    const history = await db().orderEvent.findMany({
      where: { orderId: (await orderOf(key)).id },
      orderBy: { id: "asc" },
    });
    expect(history.map((event) => event.status)).toEqual(["pending", "cancelled", "finished"]);
  });
});

describe("Find my orders", () => {
  it("answers 202 for an unknown email and sends nothing", async () => {
    const answer = await askForOrders("nobody@example.com");
    expect(answer).toMatchObject({ status: 202, body: { success: true } });
    const bad = await askForOrders("not-an-email");
    expect(bad.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mailsTo("nobody@example.com")).toHaveLength(0);
  });

  it("mails a one-hour sign-in link listing the paid orders with fresh 30-day links", async () => {
    const paidKey = await buy("finder@example.com");
    await pay(paidKey);
    const unpaidKey = await buy("finder@example.com");
    // The paid order's links ran out long ago.
    await db().order.update({
      where: { downloadKey: paidKey },
      data: { downloadExpiresAt: new Date(Date.now() - 24 * HOUR) },
    });
    expect(
      (await call(download, `/api/leads/download/${paidKey}`, { params: { key: paidKey } })).status,
    ).toBe(410);

    expect((await askForOrders("Finder@Example.com")).status).toBe(202);
    const mail = await smtp.waitFor((m) => m.subject === "Your LeadMarket orders");
    const url = new URL(/http:\/\/localhost:3999\/orders\?token=\S+/.exec(mail.text ?? "")![0]);
    const token = url.searchParams.get("token")!;

    const listed = await ordersForToken(token);
    expect(listed).toHaveLength(1);
    expect(listed![0]).toMatchObject({ key: paidKey, categoryTitle: "Orders Finance", status: "paid" });
    expect(JSON.stringify(listed)).not.toContain(unpaidKey);
    const expires = new Date(listed![0].expiresAt!).getTime();
    expect(Math.abs(expires - (Date.now() + 30 * 24 * HOUR))).toBeLessThan(60_000);
    const renewed = await call(download, `/api/leads/download/${paidKey}`, { params: { key: paidKey } });
    expect(renewed.status).toBe(200);
    // Read to the end: an unread download holds its COPY connection.
    expect((await renewed.text()).trimEnd().split("\r\n")).toHaveLength(1001);

    // The link is good for an hour only, and only with our secret.
    expect(await ordersForToken(token, new Date(Date.now() + 61 * 60 * 1000))).toBeNull();
    expect(await ordersForToken(`${token.slice(0, -2)}xx`)).toBeNull();
    const { SignJWT } = await import("jose");
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("finder@example.com")
      .setIssuer("leadmarket")
      .setAudience("leadmarket-orders")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("another-secret-another-secret-0123456789"));
    expect(await ordersForToken(forged)).toBeNull();
    expect(await ordersForToken(await signOrdersToken("finder@example.com"))).toHaveLength(1);
  });

  it("mails at most 3 times a day per email and takes 10 lookups an hour per address", async () => {
    const key = await buy("limits@example.com");
    await pay(key);
    for (let i = 0; i < 5; i += 1) expect((await askForOrders("limits@example.com")).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo("limits@example.com").filter((m) => m.subject === "Your LeadMarket orders")).toHaveLength(
      3,
    );

    const address = nextAddress();
    for (let i = 0; i < 10; i += 1)
      expect((await askForOrders(`p${i}@example.com`, address)).status).toBe(202);
    const refused = await askForOrders("p10@example.com", address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
  });
});

describe("pending orders over time", () => {
  it("expires checkouts left unpaid for 24 hours (injected clock) and leaves them out of pending", async () => {
    const stale = await buy();
    const partly = await buy();
    const partial = standin.pay((await orderOf(partly)).invoiceId!, {
      status: "partially_paid",
      paidRatio: 0.2,
    });
    // The returning tab's check: the key with the NP_id the provider appended.
    await callJson(status, `/api/payment/status/${partly}?NP_id=${partial.payment_id}`, {
      params: { id: partly },
    });
    expect((await orderOf(partly)).status).toBe("partially_paid");
    const before = await getStats();

    expect(await expireStaleOrders(new Date(Date.now() + 23 * HOUR))).toBe(0);
    const later = new Date(Date.now() + 25 * HOUR);
    expect(await expireStaleOrders(later)).toBeGreaterThanOrEqual(1);
    expect((await orderOf(stale)).status).toBe("expired");
    // Something was received: that order waits for the admin, it does not silently expire.
    expect((await orderOf(partly)).status).toBe("partially_paid");
    const check = await callJson(status, `/api/payment/status/${stale}`, { params: { id: stale } });
    expect(check.body).toMatchObject({ status: "expired", paid: false });

    const after = await getStats();
    expect(after.pendingSales).toBeLessThan(before.pendingSales);
    expect(after.totalSales).toBe(after.confirmedSales + after.pendingSales);
    const history = await db().orderEvent.findMany({ where: { orderId: (await orderOf(stale)).id } });
    expect(history.map((event) => event.status)).toEqual(["pending", "expired"]);
  });

  it("re-checks pending orders with a known payment id in the background", async () => {
    const key = await buy("late@example.com");
    const payment = standin.pay((await orderOf(key)).invoiceId!, { status: "waiting" });
    await callJson(status, `/api/payment/status/${key}?NP_id=${payment.payment_id}`, { params: { id: key } });
    expect((await orderOf(key)).status).toBe("waiting");
    // The callback is lost; the provider finishes the payment.
    standin.setStatus(payment.payment_id, "finished");
    await pool().query("DELETE FROM throttle_events WHERE true");
    const now = new Date(Date.now() + 5 * 60 * 1000);
    expect(await reconcilePendingOrders(now)).toBeGreaterThanOrEqual(1);
    const row = await orderOf(key);
    expect(row.paidAt).not.toBeNull();
    expect(row.checkedAt).not.toBeNull();
    await smtp.waitFor((m) => [m.to].flat().some((to) => to?.text === "late@example.com"));
  });
});

describe("the admin's Sales tab", () => {
  let token: string;
  beforeAll(async () => {
    const admin = await db().admin.create({
      data: { email: "orders-admin@example.com", passwordHash: "x" },
      select: { id: true, passwordChangedAt: true },
    });
    token = await signAdminToken(admin);
  });

  it("filters by status and shows an order in full without its download key", async () => {
    const key = await buy("detail@example.com");
    const payment = await pay(key);
    const row = await orderOf(key);
    const stale = await buy();
    await expireStaleOrders(new Date(Date.now() + 25 * HOUR));

    type Sale = { _id: string; paymentId: string; status: string };
    const confirmed = await callJson<Sale[]>(salesList, "/api/admin/sales?status=confirmed&pageSize=500", {
      token,
    });
    expect(confirmed.body.every((sale) => sale.status === "confirmed")).toBe(true);
    expect(confirmed.body.find((sale) => sale._id === row.id)?.paymentId).toBe(String(payment.payment_id));
    const expired = await callJson<Sale[]>(salesList, "/api/admin/sales?status=expired&pageSize=500", {
      token,
    });
    expect(expired.body.map((sale) => sale._id)).toContain((await orderOf(stale)).id);
    expect(expired.body.every((sale) => sale.status === "expired")).toBe(true);
    const pending = await callJson<Sale[]>(salesList, "/api/admin/sales?status=pending&pageSize=500", {
      token,
    });
    expect(pending.body.some((sale) => ["expired", "cancelled", "confirmed"].includes(sale.status))).toBe(
      false,
    );
    expect((await callJson(salesList, "/api/admin/sales?status=bogus", { token })).status).toBe(400);

    const detail = await callJson<Record<string, unknown>>(saleDetail, `/api/admin/sales/${row.id}`, {
      params: { id: row.id },
      token,
    });
    expect(detail.body).toMatchObject({
      _id: row.id,
      status: "confirmed",
      buyerEmail: "detail@example.com",
      invoiceId: row.invoiceId,
      providerPaymentId: String(payment.payment_id),
      payCurrency: "usdttrc20",
      actuallyPaid: 5,
    });
    expect((detail.body.history as { status: string }[]).map((event) => event.status)).toEqual([
      "pending",
      "finished",
    ]);
    const lists = JSON.stringify([detail.body, confirmed.body, expired.body, pending.body]);
    expect(lists).not.toContain(key);
    expect(
      (await callJson(saleDetail, `/api/admin/sales/${row.id}`, { params: { id: row.id } })).status,
    ).toBe(401);
  });

  it("rechecks a pending order with the provider and resends a receipt", async () => {
    const key = await buy("resend@example.com");
    const payment = standin.pay((await orderOf(key)).invoiceId!, { status: "waiting" });
    await callJson(status, `/api/payment/status/${key}?NP_id=${payment.payment_id}`, { params: { id: key } });
    const { id } = await orderOf(key);
    const early = await callJson(resendReceipt, `/api/admin/sales/${id}/resend-receipt`, {
      method: "POST",
      params: { id },
      token,
    });
    expect(early.status).toBe(409);

    standin.setStatus(payment.payment_id, "finished");
    await pool().query("DELETE FROM throttle_events WHERE true");
    const rechecked = await callJson<{ status: string }>(recheck, `/api/admin/sales/${id}/recheck`, {
      method: "POST",
      params: { id },
      token,
    });
    expect(rechecked.body.status).toBe("confirmed");
    await smtp.waitFor((m) => [m.to].flat().some((to) => to?.text === "resend@example.com"));

    const resent = await callJson<{ receiptSentAt: string }>(
      resendReceipt,
      `/api/admin/sales/${id}/resend-receipt`,
      {
        method: "POST",
        params: { id },
        token,
      },
    );
    expect(resent.status).toBe(200);
    // The outbox delivers right after the queuing transaction commits.
    await expect.poll(() => mailsTo("resend@example.com").length).toBe(2);
    const receipts = mailsTo("resend@example.com");
    expect(receipts[1].text).toContain(`http://localhost:3999/order/${key}`);

    const noPayment = (await orderOf(await buy())).id;
    const refused = await callJson(recheck, `/api/admin/sales/${noPayment}/recheck`, {
      method: "POST",
      params: { id: noPayment },
      token,
    });
    expect(refused.status).toBe(409);
  });
});
