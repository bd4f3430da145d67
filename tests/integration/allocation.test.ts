// Fair allocation (docs/product-rules.md, "Fair allocation") against PostgreSQL and the NOWPayments
// stand-in: least-sold leads first, then the most recently verified, then a random order stable per
// order; the sold counter (lead_sales) and the unsold leads' walk (unsold_leads) held exact against
// order_leads through sales, replacement claims, erasures, re-checks, the deletion of quarantined
// leads and of orders.
import { afterAll, describe, expect, it } from "vitest";
import { fromAddress } from "../support/client";
import { call, callJson } from "../support/routes";
import { startTestStore } from "../support/store";
import { paidOrder } from "../support/paid-order";

const store = await startTestStore({
  name: "leadmarket_allocation",
  apiKey: "np-alloc-key",
  ipnSecret: "ipn-alloc",
  env: { ORDER_CREATE_LIMIT: "0" },
});
const { standin } = store;

const { POST: create } = await import("@/app/api/payment/create/route");
const { POST: ipn } = await import("@/app/api/payment/ipn/route");
const { POST: claimRoute } = await import("@/app/api/orders/[key]/replacement/route");
const { db, pool } = await import("@/lib/db");
const { FRESH_ORDER, freshLeadsQuery } = await import("@/lib/leads/allocation");
const { deleteQuarantined } = await import("@/lib/categories/quarantine");
const { confirmPrivacyRequest, signPrivacyToken } = await import("@/lib/privacy/requests");
const { emailHash, maskEmail } = await import("@/lib/mail/address");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

afterAll(store.close);

let addresses = 0;
const nextAddress = () => `10.9.${Math.floor(++addresses / 250)}.${addresses % 250}`;

const buy = (categoryId: string, packageType = "starter", email?: string) =>
  paidOrder(standin, { categoryId, packageType, email });

/** The order's leads in delivery order. */
async function delivered(key: string): Promise<{ id: string; email: string }[]> {
  const { rows } = await pool().query<{ id: string; email: string }>(
    `SELECT l.id::text AS id, l.email FROM orders o JOIN order_leads ol ON ol.order_id = o.id
       JOIN leads l ON l.id = ol.lead_id WHERE o.download_key = $1 ORDER BY ol.position`,
    [key],
  );
  return rows;
}

/** lead_sales is exactly order_leads counted per lead, with the lead's category. */
async function expectCounterExact(): Promise<number> {
  const { rows } = await pool().query<{ lead_id: string; category_id: string; sold: number; kind: string }>(
    `(SELECT lead_id::text, category_id::text, sold, 'kept' AS kind FROM lead_sales
      EXCEPT SELECT ol.lead_id::text, l.category_id::text, count(*)::int, 'kept' FROM order_leads ol
        JOIN leads l ON l.id = ol.lead_id GROUP BY 1, 2)
     UNION ALL
     (SELECT ol.lead_id::text, l.category_id::text, count(*)::int, 'truth' FROM order_leads ol
        JOIN leads l ON l.id = ol.lead_id GROUP BY 1, 2
      EXCEPT SELECT lead_id::text, category_id::text, sold, 'truth' FROM lead_sales)`,
  );
  expect(rows).toEqual([]);
  // unsold_leads is exactly the other leads, with the columns allocation walks them by.
  const { rows: unsold } = await pool().query(
    `(SELECT lead_id::text, category_id::text, country::text, verified_at, 'kept' AS kind FROM unsold_leads
      EXCEPT SELECT id::text, category_id::text, country::text, verified_at, 'kept' FROM leads l
       WHERE NOT EXISTS (SELECT 1 FROM lead_sales s WHERE s.lead_id = l.id))
     UNION ALL
     (SELECT id::text, category_id::text, country::text, verified_at, 'truth' FROM leads l
       WHERE NOT EXISTS (SELECT 1 FROM lead_sales s WHERE s.lead_id = l.id)
      EXCEPT SELECT lead_id::text, category_id::text, country::text, verified_at, 'truth' FROM unsold_leads)`,
  );
  expect(unsold).toEqual([]);
  return (await pool().query("SELECT 1 FROM lead_sales")).rowCount!;
}

describe("rotation", () => {
  it("gives two buyers of one category different leads until its unsold leads run out", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Rotation Leads" }, 2500, 71);
    const first = await delivered(await buy(category));
    const second = await delivered(await buy(category));
    expect(first).toHaveLength(1000);
    expect(second).toHaveLength(1000);
    const firstIds = new Set(first.map((lead) => lead.id));
    expect(second.filter((lead) => firstIds.has(lead.id))).toEqual([]);

    // The third takes the last 500 unsold leads first, then 500 sold once.
    const third = await delivered(await buy(category));
    const { rows: sold } = await pool().query<{ sold: number }>(
      `SELECT coalesce(s.sold, 0) - 1 AS sold FROM unnest($1::bigint[]) WITH ORDINALITY AS t(id, n)
         LEFT JOIN lead_sales s ON s.lead_id = t.id ORDER BY n`,
      [third.map((lead) => lead.id)],
    );
    expect(sold.slice(0, 500).every((row) => row.sold === 0)).toBe(true);
    expect(sold.slice(500).every((row) => row.sold === 1)).toBe(true);
    expect(await expectCounterExact()).toBe(2500);
  });

  it("gives two orders paid at the same moment different leads, also of one buyer", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Simultaneous Leads" }, 3000, 74);
    const keys = await Promise.all(
      ["a@example.com", undefined, "same@example.com", "same@example.com"].map(async (email) => {
        const result = await callJson<{ paymentId: string }>(create, "/api/payment/create", {
          json: { categoryId: category, packageType: "starter", ...(email ? { email } : {}) },
          headers: fromAddress(nextAddress()),
        });
        expect(result.status).toBe(200);
        return result.body.paymentId;
      }),
    );
    const signed = await Promise.all(
      keys.map(async (key) => {
        const order = await db().order.findUniqueOrThrow({ where: { downloadKey: key } });
        return standin.signedIpn(standin.pay(order.invoiceId!, { status: "finished" }).payment_id);
      }),
    );
    // Two pairs at once: the category has unsold leads for three orders, never four.
    for (const pair of [signed.slice(0, 2), signed.slice(2)]) {
      const answers = await Promise.all(
        pair.map((ipnCall) =>
          call(ipn, "/api/payment/ipn", {
            body: ipnCall.body,
            headers: { "content-type": "application/json", "x-nowpayments-sig": ipnCall.signature },
          }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    }
    const [a, b, c, d] = await Promise.all(keys.map(delivered));
    const ids = (rows: { id: string }[]) => new Set(rows.map((row) => row.id));
    expect([...ids(b)].filter((id) => ids(a).has(id))).toEqual([]);
    // The same buyer's two orders never share a lead.
    expect([...ids(d)].filter((id) => ids(c).has(id))).toEqual([]);
    await expectCounterExact();
  });

  it("ranks least sold, then most recently verified, then by a random order stable per order", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Tie Leads" }, 1200, 72);
    // Half the leads share one verified_at: only the random order separates them.
    await pool().query(
      `UPDATE leads SET verified_at = '2026-11-01T00:00:00Z' WHERE category_id = $1 AND id % 2 = 0`,
      [category],
    );
    const ranked = async (orderId: string) =>
      (
        await db().$queryRaw<{ id: bigint; sold: number; verified_at: Date }[]>`
          SELECT id, sold, verified_at FROM (${freshLeadsQuery({ categoryId: category, country: "USA", orderId }, 1200)}) AS fresh
           ORDER BY ${FRESH_ORDER}`
      ).map((row) => ({ ...row, id: row.id.toString() }));
    const a = await ranked("00000000-0000-4000-8000-000000000001");
    expect(await ranked("00000000-0000-4000-8000-000000000001")).toEqual(a);
    const b = await ranked("00000000-0000-4000-8000-000000000002");
    // Same leads, same freshness order; the ties in another order.
    expect(b.map((row) => row.verified_at)).toEqual(a.map((row) => row.verified_at));
    const tiedA = a.filter((row) => row.verified_at.toISOString() === "2026-11-01T00:00:00.000Z");
    const tiedB = b.filter((row) => row.verified_at.toISOString() === "2026-11-01T00:00:00.000Z");
    expect(tiedA.length).toBeGreaterThan(500);
    expect(new Set(tiedB.map((row) => row.id))).toEqual(new Set(tiedA.map((row) => row.id)));
    expect(tiedB.map((row) => row.id)).not.toEqual(tiedA.map((row) => row.id));
    expect(tiedA.map((row) => row.id)).not.toEqual(tiedA.map((row) => row.id).sort());
    for (let i = 1; i < a.length; i++) {
      expect(a[i].verified_at.getTime()).toBeLessThanOrEqual(a[i - 1].verified_at.getTime());
    }

    // A sale puts its leads behind every unsold one.
    await pool().query(
      `UPDATE leads SET verified_at = now() - interval '200 days' WHERE category_id = $1 AND id % 2 = 0`,
      [category],
    );
    const key = await buy(category);
    const sold = new Set((await delivered(key)).map((lead) => lead.id));
    const after = await ranked("00000000-0000-4000-8000-000000000001");
    expect(after.slice(0, 200).every((row) => row.sold === 0 && !sold.has(row.id))).toBe(true);
    expect(after.slice(200).every((row) => row.sold === 1 && sold.has(row.id))).toBe(true);
    // The walk's verified_at followed the updates.
    await expectCounterExact();
  });
});

describe("the sold counter", () => {
  it("follows replacement claims, erasures, deleted quarantined leads and deleted orders", async () => {
    const category = await createCategoryWithLeads(pool(), { title: "Counter Leads" }, 3000, 73);
    const key = await buy(category);
    await buy(category);
    await expectCounterExact();

    const rows = await delivered(key);
    const reported = rows.slice(0, 60).map((lead) => lead.email);
    const claim = await callJson(claimRoute, `/api/orders/${key}/replacement`, {
      params: { key },
      json: { emails: reported },
      headers: fromAddress(nextAddress()),
    });
    expect(claim.status).toBe(201);
    await expectCounterExact();
    // The reported leads' sale moved to their replacements.
    expect(
      (
        await pool().query(
          "SELECT 1 FROM lead_sales s JOIN leads l ON l.id = s.lead_id WHERE l.quarantined_at IS NOT NULL",
        )
      ).rowCount,
    ).toBe(0);

    const erased = (await delivered(key))[100].email;
    const request = await db().privacyRequest.create({
      data: { kind: "erasure", email: erased, emailHash: emailHash(erased), emailMasked: maskEmail(erased) },
    });
    await confirmPrivacyRequest(await signPrivacyToken(request.id, "erasure"));
    expect((await delivered(key)).some((lead) => lead.email === erased)).toBe(false);
    await expectCounterExact();

    await db().lead.updateMany({
      where: { categoryId: category, email: { in: rows.slice(200, 210).map((l) => l.email) } },
      data: { quarantinedAt: new Date() },
    });
    await deleteQuarantined(category);
    await expectCounterExact();

    await db().order.delete({ where: { downloadKey: key } });
    await expectCounterExact();
  });
});

describe("the buyer's earlier purchases", () => {
  const BUYER = "Returning.Buyer@Example.com";

  it("are never delivered again to the same email, in any category, nor as replacements; availability counts them", async () => {
    const first = await createCategoryWithLeads(pool(), { title: "Bought Before A" }, 1000, 74);
    const firstKey = await buy(first, "starter", BUYER);
    const boughtInFirst = new Set((await delivered(firstKey)).map((lead) => lead.email));
    expect(boughtInFirst.size).toBe(1000);

    // The second category holds 600 of the same people, verified most recently, and 1,100 others.
    const second = await createCategoryWithLeads(pool(), { title: "Bought Before B" }, 1100, 75);
    await pool().query(
      `INSERT INTO leads (category_id, first_name, last_name, email, country, verified_at)
       SELECT $2, first_name, last_name, email, country, now() FROM leads WHERE category_id = $1 ORDER BY id LIMIT 600`,
      [first, second],
    );
    const key = await buy(second, "starter", ` ${BUYER.toUpperCase()} `);
    const rows = await delivered(key);
    expect(rows).toHaveLength(1000);
    expect(rows.filter((lead) => boughtInFirst.has(lead.email))).toEqual([]);
    const order = await db().order.findUniqueOrThrow({ where: { downloadKey: key } });
    expect(order.excludedBought).toBe(600);
    // Another buyer is not held back by this one's purchases.
    const other = await delivered(await buy(second, "starter", "someone.else@example.com"));
    expect(other.filter((lead) => boughtInFirst.has(lead.email)).length).toBeGreaterThan(0);

    // Replacements skip them too: 60 reported, only the 100 others neither bought nor reported qualify.
    const claim = await callJson<{ replaced: number; shortfall: number }>(
      claimRoute,
      `/api/orders/${key}/replacement`,
      {
        params: { key },
        json: { emails: rows.slice(0, 60).map((lead) => lead.email) },
        headers: fromAddress(nextAddress()),
      },
    );
    expect(claim.status).toBe(201);
    expect(claim.body).toMatchObject({ replaced: 60, shortfall: 0 });
    const after = await delivered(key);
    expect(after.filter((lead) => boughtInFirst.has(lead.email))).toEqual([]);
    await expectCounterExact();

    // 1,700 sellable leads (the 60 reported stay sellable to others until a second buyer reports
    // them), of which the buyer has 1,600: no package fits, and no order is made.
    const orders = await db().order.count();
    const refused = await callJson<{ message: string }>(create, "/api/payment/create", {
      json: { categoryId: second, packageType: "starter", email: BUYER },
      headers: fromAddress(nextAddress()),
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      "Bought Before B has 1,700 leads; you bought 1,600 of them before, which leaves 100, fewer than the 1,000 the Starter package includes. Choose a smaller package or request custom leads.",
    );
    expect(await db().order.count()).toBe(orders);
  });
});
