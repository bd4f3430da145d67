// The buyer's earlier purchases (docs/product-rules.md, "Fair allocation"), counted without reading
// every bought lead (lib/leads/allocation.ts, countBoughtBefore): the count equals a plain count
// over the leads' rows whatever countries and segments the earlier orders had, after bought leads
// stopped selling, with a lead bought twice and with purchases in another category; an allocation
// leaves every one of them out, of the unsold leads and of the sold ones alike.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Location } from "@/lib/location";
import type { Segment } from "@/lib/segments/vocabularies";

const { db, pool, transaction } = await import("@/lib/db");
const { countBoughtBefore } = await import("@/lib/leads/allocation");
const { allocateLeads } = await import("@/lib/orders/settle");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

const BUYER = "returning.buyer@example.com";

let first: string;
let second: string;

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
});

/** A paid order of `buyer`, allocated as a payment allocates it; answers its id. */
async function paidOrder(
  categoryId: string,
  leadCount: number,
  location: Location,
  segment: Segment | null,
  buyer: string | null = BUYER,
): Promise<{ id: string; allocated: number }> {
  const { rows } = await pool().query<{ id: string }>(
    `INSERT INTO orders (category_id, lead_title, package_type, lead_count, amount, buyer_email, paid_at, status, location, segment)
     VALUES ($1, 'Bought Before', 'starter', $2, 0, $3, now(), 'finished', $4, $5) RETURNING id`,
    [categoryId, leadCount, buyer, location, segment && JSON.stringify(segment)],
  );
  const order = {
    id: rows[0].id,
    categoryId,
    leadCount,
    location,
    segment,
    buyerEmail: buyer,
    suppressionListId: null,
  };
  return { id: order.id, allocated: await transaction((tx) => allocateLeads(tx, order)) };
}

/** The plain count: every sellable lead of the country and segment whose email the buyer bought. */
async function truth(categoryId: string, country: Location, segment: Segment | null): Promise<number> {
  const facets = Object.entries(segment ?? {}).filter(([, values]) => values?.length);
  const { rows } = await pool().query<{ n: number }>(
    `SELECT count(*)::int AS n FROM leads l
      WHERE l.category_id = $1 AND l.country = $2 AND lead_sellable(l.quarantined_at, l.email_status, l.notice_status)
        ${facets.map(([facet], i) => `AND l.facet_${facet} = ANY($${i + 4})`).join(" ")}
        AND l.email = ANY($3)`,
    [categoryId, country, await boughtEmails(), ...facets.map(([, values]) => values)],
  );
  return rows[0].n;
}

/** The emails of the leads the buyer's paid orders delivered, in any category. */
async function boughtEmails(exceptOrderId?: string): Promise<string[]> {
  const { rows } = await pool().query<{ email: string }>(
    `SELECT b.email FROM orders o JOIN order_leads ol ON ol.order_id = o.id JOIN leads b ON b.id = ol.lead_id
      WHERE o.buyer_email = $1 AND o.paid_at IS NOT NULL AND o.id IS DISTINCT FROM $2`,
    [BUYER, exceptOrderId ?? null],
  );
  return rows.map((row) => row.email);
}

beforeAll(async () => {
  first = await createCategoryWithLeads(pool(), { title: "Bought Before First" }, { usa: 3000, uk: 600 }, 81);
  second = await createCategoryWithLeads(pool(), { title: "Bought Before Second" }, 1500, 82);
  // 400 people of the first category are in the second too, verified most recently there.
  await pool().query(
    `INSERT INTO leads (category_id, first_name, last_name, email, country, verified_at)
     SELECT $2, first_name, last_name, email, country, now() FROM leads
      WHERE category_id = $1 AND country = 'USA' ORDER BY id DESC LIMIT 400`,
    [first, second],
  );
  const whole = await paidOrder(first, 300, "USA", null);
  await paidOrder(first, 200, "USA", { seniority: ["manager", "director"] });
  await paidOrder(first, 100, "UK", null);
  await paidOrder(second, 500, "USA", null);
  await paidOrder(first, 200, "USA", null, "someone.else@example.com");
  // Sold to the buyer twice: an order of the same kind holding 50 of the first order's leads.
  const twice = await paidOrder(first, 0, "USA", null);
  await pool().query(
    `INSERT INTO order_leads (order_id, position, lead_id)
     SELECT $2, position, lead_id FROM order_leads WHERE order_id = $1 AND position <= 50`,
    [whole.id, twice.id],
  );
  // Some bought leads no longer sell: found invalid, or quarantined.
  await pool().query(
    `UPDATE leads SET email_status = 'invalid' WHERE id IN (
       SELECT lead_id FROM order_leads WHERE order_id = $1 AND position BETWEEN 40 AND 69)`,
    [whole.id],
  );
  await pool().query(
    `UPDATE leads SET quarantined_at = now() WHERE category_id = $1 AND email IN (
       SELECT email FROM leads WHERE category_id = $2 ORDER BY verified_at DESC, id LIMIT 7)`,
    [first, second],
  );
});

describe("the earlier-purchase count", () => {
  it("equals the plain count for every country and segment", async () => {
    const cases: [string, Location, Segment | null][] = [
      [first, "USA", null],
      [first, "UK", null],
      [first, "USA", { seniority: ["manager", "director"] }],
      [first, "USA", { seniority: ["director", "manager", "vp"] }],
      // Narrower than the segment bought: its leads are read one by one.
      [first, "USA", { seniority: ["manager"] }],
      [first, "USA", { seniority: ["manager", "director"], size: ["11-50", "51-200"] }],
      [first, "UK", { seniority: ["manager", "director", "senior"] }],
      [second, "USA", null],
      [second, "USA", { seniority: ["manager"] }],
    ];
    const counted = [];
    for (const [category, country, segment] of cases) {
      counted.push({
        category,
        country,
        segment,
        count: await countBoughtBefore({ categoryId: category, country, segment }, BUYER),
        truth: await truth(category, country, segment),
      });
    }
    expect(counted.map(({ count }) => count)).toEqual(counted.map(({ truth }) => truth));
    // The cases are not empty: the first category holds all kinds of bought leads.
    expect(counted[0].truth).toBeGreaterThan(400);
    expect(counted.every(({ truth }) => truth > 0)).toBe(true);
    expect(
      await countBoughtBefore({ categoryId: first, country: "USA", segment: null }, "new@example.com"),
    ).toBe(0);
  });

  it("leaves every bought lead out of an allocation, the sold ones included", async () => {
    const bought = await truth(first, "USA", null);
    const { rows } = await pool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM leads
        WHERE category_id = $1 AND country = 'USA' AND lead_sellable(quarantined_at, email_status, notice_status)`,
      [first],
    );
    // Every lead it may have: the unsold ones first, then the 200 another buyer has.
    const order = await paidOrder(first, rows[0].n - bought + 1, "USA", null);
    expect(order.allocated).toBe(rows[0].n - bought);
    const before = new Set(await boughtEmails(order.id));
    const { rows: delivered } = await pool().query<{ email: string }>(
      "SELECT l.email FROM order_leads ol JOIN leads l ON l.id = ol.lead_id WHERE ol.order_id = $1",
      [order.id],
    );
    expect(delivered.filter((row) => before.has(row.email))).toEqual([]);
    const { rows: sold } = await pool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM order_leads ol JOIN orders o ON o.id = ol.order_id
        WHERE o.buyer_email = 'someone.else@example.com'
          AND ol.lead_id IN (SELECT lead_id FROM order_leads WHERE order_id = $1)`,
      [order.id],
    );
    expect(sold[0].n).toBeGreaterThan(0);
  });
});
