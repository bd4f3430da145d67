// Provider ids we have not stored yet, against the NOWPayments stand-in: status by an NP_id alone
// (no callback, no key), the bounds on asking the provider about ids we do not know (per id, per
// order, per address, in all), the paid status every client reads, and a payment made after the
// buyer cancelled the checkout. Runs in its own database.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fromAddress } from "../support/client";
import { call, callJson } from "../support/routes";
import { startTestStore } from "../support/store";

const LOOKUPS_PER_MINUTE = 8;
const store = await startTestStore({
  name: "leadmarket_pay_lookups",
  apiKey: "np-lookups-key",
  ipnSecret: "ipn-lookups",
  env: { PROVIDER_LOOKUP_LIMIT: String(LOOKUPS_PER_MINUTE) },
});
const { standin } = store;

const { POST: create } = await import("@/app/api/payment/create/route");
const { GET: status } = await import("@/app/api/payment/status/[id]/route");
const { POST: ipn } = await import("@/app/api/payment/ipn/route");
const { POST: cancel } = await import("@/app/api/orders/[key]/cancel/route");
const { GET: download } = await import("@/app/api/leads/download/[key]/route");
const { GET: saleDetail } = await import("@/app/api/admin/sales/[id]/route");
const { POST: recheck } = await import("@/app/api/admin/sales/[id]/recheck/route");
const { db, pool } = await import("@/lib/db");
const { reconcilePendingOrders } = await import("@/lib/orders/maintenance");
const { signAdminToken } = await import("@/lib/auth/session");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

type Created = { success: boolean; paymentId: string; invoiceUrl: string };
type Status = { success: boolean; status: string; amount: number; paid: boolean };

let category: string;
let token: string;
let addresses = 0;
const nextAddress = () => `10.7.${Math.floor(++addresses / 250)}.${addresses % 250}`;

beforeAll(async () => {
  category = await createCategoryWithLeads(pool(), { title: "Lookup Sales" }, 1200, 71);
  const admin = await db().admin.create({
    data: { email: "lookups-admin@example.com", passwordHash: "x" },
    select: { id: true, passwordChangedAt: true },
  });
  token = await signAdminToken(admin);
});
// Every test starts with fresh minutes: the limits under test are the only ones in play.
beforeEach(async () => {
  await pool().query("DELETE FROM throttle_events WHERE true");
});
afterAll(store.close);

let buyers = 0;

// One buyer email per order: an email is never sold the same leads twice, and the category is small.
async function buy(): Promise<string> {
  const result = await callJson<Created>(create, "/api/payment/create", {
    json: { categoryId: category, packageType: "starter", email: `lookup-buyer-${++buyers}@example.com` },
    headers: fromAddress(nextAddress()),
  });
  expect(result.status).toBe(200);
  return result.body.paymentId;
}

const orderOf = (key: string) => db().order.findUniqueOrThrow({ where: { downloadKey: key } });
const check = (id: string, address = nextAddress(), npId?: string | number) =>
  callJson<Status>(status, `/api/payment/status/${id}${npId === undefined ? "" : `?NP_id=${npId}`}`, {
    params: { id },
    headers: fromAddress(address),
  });
const allocated = async (key: string) =>
  db().orderLead.count({ where: { orderId: (await orderOf(key)).id } });
const madeUp = (i: number) => String(7_100_000_000 + i * 7919);

describe("status by an NP_id we have not stored", () => {
  it("asks the provider, applies the payment as a callback would, and then answers by every id", async () => {
    const key = await buy();
    const { invoiceId } = await orderOf(key);
    const payment = standin.pay(invoiceId!, { status: "finished" });
    // No callback, no key: the spec's client asks by the NP_id alone.
    const byNpId = await check(String(payment.payment_id));
    expect(byNpId).toMatchObject({
      status: 200,
      body: { success: true, status: "finished", amount: 10, paid: true },
    });
    const row = await orderOf(key);
    expect(row.paidAt).not.toBeNull();
    expect(row.providerPaymentId).toBe(String(payment.payment_id));
    expect(await allocated(key)).toBe(1000);
    // The receipt is queued with the sale, exactly as for a callback.
    expect(await db().mailOutbox.count({ where: { recipient: row.buyerEmail! } })).toBe(1);
    expect((await check(invoiceId!)).body).toMatchObject({ status: "finished", paid: true });
    // Provider ids still never open a download.
    const file = await call(download, `/api/leads/download/${payment.payment_id}`, {
      params: { key: String(payment.payment_id) },
      headers: fromAddress(nextAddress()),
    });
    expect(file.status).toBe(404);
  });

  it("ties a payment without order_id to our order by its invoice_id", async () => {
    const key = await buy();
    const payment = standin.pay((await orderOf(key)).invoiceId!, { status: "confirmed" });
    payment.order_id = "";
    expect((await check(String(payment.payment_id))).body).toMatchObject({ status: "confirmed", paid: true });
    expect((await orderOf(key)).paidAt).not.toBeNull();
  });

  it("answers 404 for an id the provider does not know, and counts it as an unknown lookup", async () => {
    const address = nextAddress();
    const before = standin.paymentLookups();
    for (let i = 0; i < 30; i += 1) expect((await check(madeUp(i), address)).status).toBe(404);
    expect((await check(madeUp(99), address)).status).toBe(429);
    // At most LOOKUPS_PER_MINUTE of them reached the provider; the rest were answered from our database.
    expect(standin.paymentLookups() - before).toBe(LOOKUPS_PER_MINUTE);
  });

  it("asks about one id at most once a minute and about at most the configured number of ids a minute", async () => {
    const key = await buy();
    const payment = standin.pay((await orderOf(key)).invoiceId!, { status: "finished" });
    const unknown = madeUp(500);
    const before = standin.paymentLookups();
    expect((await check(unknown)).status).toBe(404);
    expect((await check(unknown)).status).toBe(404);
    expect(standin.paymentLookups() - before).toBe(1);
    // Many addresses walking ids: the provider hears of at most LOOKUPS_PER_MINUTE in the minute...
    const walked = await Promise.all(Array.from({ length: 20 }, (_, i) => check(madeUp(600 + i))));
    expect(walked.map((answer) => answer.status)).toEqual(Array(20).fill(404));
    expect(standin.paymentLookups() - before).toBe(LOOKUPS_PER_MINUTE);
    // ...so a real NP_id waits for the next minute, and then works.
    expect((await check(String(payment.payment_id))).status).toBe(404);
    await pool().query("DELETE FROM throttle_events WHERE true");
    expect((await check(String(payment.payment_id))).body).toMatchObject({ paid: true });
  });
});

describe("returned NP_ids with the order's key", () => {
  it("looks up at most 3 returned ids per order; made-up ids count as unknown lookups and change nothing", async () => {
    const key = await buy();
    const before = standin.paymentLookups();
    const answers = [];
    for (let i = 0; i < 40; i += 1) answers.push(await check(key, nextAddress(), madeUp(1000 + i)));
    expect(answers.every((answer) => answer.status === 200 && answer.body.status === "pending")).toBe(true);
    expect(standin.paymentLookups() - before).toBe(3);
    expect(await orderOf(key)).toMatchObject({ paidAt: null, providerPaymentId: null, status: "pending" });
  });

  it("counts made-up ids against the address: 30 per 10 minutes, then 429", async () => {
    const address = nextAddress();
    // One after another: an instance counts at most 4 buyers' earlier purchases at once (503 beyond).
    const keys: string[] = [];
    for (let i = 0; i < 11; i += 1) keys.push(await buy());
    const before = standin.paymentLookups();
    let answered = 0;
    for (let i = 0; i < 30; i += 1) {
      const answer = await check(keys[Math.floor(i / 3)], address, madeUp(2000 + i));
      expect(answer.status).toBe(200);
      answered += 1;
    }
    expect(answered).toBe(30);
    expect((await check(keys[10], address, madeUp(2100))).status).toBe(429);
    expect(standin.paymentLookups() - before).toBeLessThanOrEqual(30);
  });

  it("ignores and counts an NP_id whose payment belongs to another order", async () => {
    const mine = await buy();
    const other = await buy();
    const theirs = standin.pay((await orderOf(other)).invoiceId!, { status: "finished" });
    const address = nextAddress();
    for (let i = 0; i < 29; i += 1) {
      const id = "B".repeat(42) + String(i % 10);
      expect(
        (
          await call(download, `/api/leads/download/${id}`, {
            params: { key: id },
            headers: fromAddress(address),
          })
        ).status,
      ).toBe(404);
    }
    // The 30th unknown lookup of the address: answered, and counted.
    expect((await check(mine, address, theirs.payment_id)).body).toMatchObject({
      status: "pending",
      paid: false,
    });
    expect(await orderOf(mine)).toMatchObject({ paidAt: null, providerPaymentId: null });
    // The other order is not changed through someone else's key.
    expect((await orderOf(other)).paidAt).toBeNull();
    expect((await check(mine, address, madeUp(3000))).status).toBe(429);
  });
});

describe("a paid status the spec's client reads", () => {
  it("answers sending as confirmed and keeps the provider's status in the order and the admin's view", async () => {
    const key = await buy();
    const payment = standin.pay((await orderOf(key)).invoiceId!, { status: "sending" });
    const signed = standin.signedIpn(payment.payment_id);
    const callback = await call(ipn, "/api/payment/ipn", {
      body: signed.body,
      headers: { "content-type": "application/json", "x-nowpayments-sig": signed.signature },
    });
    expect(callback.status).toBe(200);
    for (const id of [key, String(payment.payment_id), (await orderOf(key)).invoiceId!]) {
      expect((await check(id)).body).toMatchObject({ status: "confirmed", amount: 10, paid: true });
    }
    const row = await orderOf(key);
    expect(row.status).toBe("sending");
    const detail = await callJson<{ history: { status: string }[] }>(
      saleDetail,
      `/api/admin/sales/${row.id}`,
      {
        params: { id: row.id },
        token,
      },
    );
    expect(detail.body.history.map((event) => event.status)).toEqual(["pending", "sending"]);
  });
});

describe("a payment made after cancelling", () => {
  async function cancelled(): Promise<string> {
    const key = await buy();
    const answer = await callJson<Status>(cancel, `/api/orders/${key}/cancel`, {
      method: "POST",
      params: { key },
      headers: fromAddress(nextAddress()),
    });
    expect(answer.body.status).toBe("cancelled");
    return key;
  }

  it("is accepted from the returning tab's NP_id and delivers", async () => {
    const key = await cancelled();
    const payment = standin.pay((await orderOf(key)).invoiceId!, { status: "finished" });
    expect((await check(key, nextAddress(), payment.payment_id)).body).toMatchObject({
      status: "finished",
      paid: true,
    });
    const file = await call(download, `/api/leads/download/${key}`, { params: { key } });
    expect(file.status).toBe(200);
    expect((await file.text()).trimEnd().split("\r\n")).toHaveLength(1001);
  });

  it("is accepted from a callback", async () => {
    const key = await cancelled();
    const payment = standin.pay((await orderOf(key)).invoiceId!, { status: "finished" });
    const signed = standin.signedIpn(payment.payment_id);
    await call(ipn, "/api/payment/ipn", {
      body: signed.body,
      headers: { "content-type": "application/json", "x-nowpayments-sig": signed.signature },
    });
    expect((await check(key)).body).toMatchObject({ paid: true });
  });

  it("is found by reconciliation once its payment id is known", async () => {
    const key = await cancelled();
    const payment = standin.pay((await orderOf(key)).invoiceId!, { status: "waiting" });
    expect((await check(key, nextAddress(), payment.payment_id)).body).toMatchObject({ paid: false });
    expect((await orderOf(key)).providerPaymentId).toBe(String(payment.payment_id));
    standin.setStatus(payment.payment_id, "finished");
    await pool().query("DELETE FROM throttle_events WHERE true");
    await reconcilePendingOrders(new Date(Date.now() + 5 * 60 * 1000));
    expect((await orderOf(key)).paidAt).not.toBeNull();
  });

  it("is found by the admin's Recheck with a payment id of the order's invoice", async () => {
    const key = await cancelled();
    const { id, invoiceId } = await orderOf(key);
    const payment = standin.pay(invoiceId!, { status: "finished" });
    const recheckWith = (paymentId?: string | number) =>
      callJson<{ status: string; paidAt: string | null; message?: string }>(
        recheck,
        `/api/admin/sales/${id}/recheck`,
        {
          method: "POST",
          params: { id },
          token,
          ...(paymentId === undefined ? {} : { json: { paymentId: String(paymentId) } }),
        },
      );
    // Without a payment id there is nothing to ask the provider about.
    expect((await recheckWith()).status).toBe(409);
    // A payment of another invoice is refused and changes nothing.
    const stranger = standin.pay((await orderOf(await buy())).invoiceId!, { status: "finished" });
    expect((await recheckWith(stranger.payment_id)).status).toBe(409);
    expect((await orderOf(key)).paidAt).toBeNull();
    const rechecked = await recheckWith(payment.payment_id);
    expect(rechecked.status).toBe(200);
    expect(rechecked.body).toMatchObject({ status: "confirmed" });
    expect(rechecked.body.paidAt).not.toBeNull();
  });
});
