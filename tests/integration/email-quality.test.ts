// Email quality at checkout (docs/product-rules.md, "Email quality") against PostgreSQL and the
// NOWPayments stand-in: segment counts, list availability and create's availability follow the
// choice, an order for `valid` delivers only valid leads and says so on its order page, in the
// receipt and in the admin's sale detail, and an unknown value is a 400 naming the allowed ones.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromAddress } from "../support/client";
import { paidOrder } from "../support/paid-order";
import { callJson } from "../support/routes";
import { rollupMismatches } from "../support/segments";
import { startTestStore } from "../support/store";

const store = await startTestStore({
  name: "leadmarket_email_quality",
  apiKey: "np-quality-key",
  ipnSecret: "ipn-quality",
  env: { ORDER_CREATE_LIMIT: "0" },
});
const { standin, smtp } = store;

const { POST: create } = await import("@/app/api/payment/create/route");
const { GET: segmentRoute } = await import("@/app/api/categories/[id]/segment/route");
const { GET: orderApi } = await import("@/app/api/orders/[key]/route");
const { GET: saleDetail } = await import("@/app/api/admin/sales/[id]/route");
const { db, pool } = await import("@/lib/db");
const { signAdminToken } = await import("@/lib/auth/session");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

let category: string;
let token: string;
let addresses = 0;
const nextAddress = () => `10.9.${Math.floor(++addresses / 250)}.${addresses % 250}`;

/** The category's sellable US leads of these statuses, counted from the leads. */
async function sellable(statuses: string[]): Promise<number> {
  const { rows } = await pool().query<{ n: number }>(
    `SELECT count(*)::int AS n FROM leads WHERE category_id = $1 AND country = 'USA'
       AND lead_sellable(quarantined_at, email_status, notice_status) AND email_status::text = ANY($2)`,
    [category, statuses],
  );
  return rows[0].n;
}

const counts = (query: string) =>
  callJson<{
    count: number;
    packages: Record<string, { available: boolean }>;
    errors?: Record<string, string>;
  }>(segmentRoute, `/api/categories/${category}/segment?${query}`, { params: { id: category } });

const createOrder = (body: Record<string, unknown>) =>
  callJson<{ paymentId?: string; message?: string; errors?: Record<string, string> }>(
    create,
    "/api/payment/create",
    {
      json: { categoryId: category, packageType: "starter", ...body },
      headers: fromAddress(nextAddress()),
    },
  );

beforeAll(async () => {
  category = await createCategoryWithLeads(pool(), { title: "Quality Leads" }, { usa: 4000, uk: 200 }, 33);
  // 1,200 valid, 1,000 accept-all, the rest unknown, and a few invalid (never sellable).
  await pool().query(
    `UPDATE leads SET email_status = (CASE WHEN n <= 1200 THEN 'valid' WHEN n <= 2200 THEN 'accept_all'
                                           WHEN n <= 3950 THEN 'unknown' ELSE 'invalid' END)::"EmailStatus"
       FROM (SELECT id AS lead_id, row_number() OVER (ORDER BY id) AS n FROM leads
              WHERE category_id = $1 AND country = 'USA') numbered
      WHERE id = numbered.lead_id`,
    [category],
  );
  const admin = await db().admin.create({
    data: { email: "quality-admin@example.com", passwordHash: "x" },
    select: { id: true, passwordChangedAt: true },
  });
  token = await signAdminToken(admin);
});

afterAll(store.close);

describe("email quality", () => {
  it("narrows the segment counts and the packages they fill, from a rollup kept exact", async () => {
    expect(await rollupMismatches(pool(), category)).toEqual([]);
    const any = await counts("location=USA");
    const deliverable = await counts("location=USA&emailQuality=deliverable");
    const valid = await counts("location=USA&emailQuality=valid");
    expect(any.body.count).toBe(await sellable(["valid", "accept_all", "unknown"]));
    expect((await counts("emailQuality=any")).body.count).toBe(any.body.count);
    expect(deliverable.body.count).toBe(await sellable(["valid", "accept_all"]));
    expect(valid.body.count).toBe(await sellable(["valid"]));
    expect(valid.body.count).toBe(1200);
    expect(valid.body.packages.starter.available).toBe(true);

    const bad = await counts("location=USA&emailQuality=catch_all");
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.emailQuality).toBe("emailQuality must be one of any, deliverable, valid");
  });

  it("refuses an unknown value at create, naming the allowed ones", async () => {
    const bad = await createOrder({ emailQuality: "perfect" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.emailQuality).toBe("emailQuality must be one of any, deliverable, valid");
  });

  it("delivers only valid leads to an order for valid, and states the choice", async () => {
    const key = await paidOrder(standin, {
      categoryId: category,
      email: "valid-buyer@example.com",
      emailQuality: "valid",
    });
    const order = await db().order.findUniqueOrThrow({ where: { downloadKey: key } });
    expect(order.emailQuality).toBe("valid");
    const { rows } = await pool().query<{ email_status: string; n: number }>(
      `SELECT l.email_status::text, count(*)::int AS n FROM order_leads ol JOIN leads l ON l.id = ol.lead_id
        WHERE ol.order_id = $1 GROUP BY 1`,
      [order.id],
    );
    expect(rows).toEqual([{ email_status: "valid", n: 1000 }]);

    const summary = await callJson<{ emailQuality: string }>(orderApi, `/api/orders/${key}`, {
      params: { key },
    });
    expect(summary.body.emailQuality).toBe("valid");
    const receipt = await smtp.waitFor((m) =>
      [m.to].flat().some((to) => to?.text === "valid-buyer@example.com"),
    );
    expect(receipt.text).toContain("Email status: Valid only");
    const detail = await callJson<{ emailQuality: string }>(saleDetail, `/api/admin/sales/${order.id}`, {
      params: { id: order.id },
      token,
    });
    expect(detail.body.emailQuality).toBe("valid");
  });

  it("follows availability: 200 valid leads left fill no starter, while any status still does", async () => {
    // The first order took 1,000 of the 1,200 valid leads; the same buyer may not have them again.
    const again = await createOrder({ emailQuality: "valid", email: "valid-buyer@example.com" });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain("(valid only)");
    await pool().query(
      `UPDATE leads SET email_status = 'unknown' WHERE category_id = $1 AND email_status = 'valid'
          AND id NOT IN (SELECT id FROM leads WHERE category_id = $1 AND email_status = 'valid' ORDER BY id LIMIT 900)`,
      [category],
    );
    const valid = await counts("location=USA&emailQuality=valid");
    expect(valid.body.count).toBe(900);
    expect(valid.body.packages.starter.available).toBe(false);
    const refused = await createOrder({ emailQuality: "valid" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("accept more email statuses");
    expect((await createOrder({ emailQuality: "deliverable" })).status).toBe(200);
    expect((await createOrder({})).status).toBe(200);
  });
});
