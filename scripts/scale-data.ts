// The data of `npm run bench:scale`: a store of `leads` leads in 5 categories (one holding 40% of
// them), three in four in the USA and the rest in the UK, with the demo's company-shaped leads,
// facets and statuses (prisma/demo-data.ts); 20,000 paid starter orders with their order_leads, of
// them the earlier orders of 500 returning buyers (10 to 50 each); then ANALYZE. Below 1,000,000
// leads the orders and buyers shrink in proportion. Leads go in by COPY through the import's own
// insertion (lib/leads/insert.ts), with every trigger of prisma/derived on, so the rollups are exact.
import { randomUUID } from "node:crypto";
import type { Pool } from "pg";
import { insertLeadStream } from "../lib/leads/insert";
import type { Location } from "../lib/location";
import { DEMO_CATEGORIES, leadBatches, random } from "../prisma/demo-data";

/** The share of the leads the big category holds. */
export const BIG_SHARE = 0.4;
const USA_SHARE = 0.75;
const ORDERS = 20_000;
const RETURNING_BUYERS = 500;
const FEWEST_EARLIER = 10;
const MOST_EARLIER = 50;
/** Every order is a starter package. */
const ORDER_LEADS = 1000;
const ORDER_SPAN = 1100;

export type ScaleCategory = { id: string; title: string; usa: number; uk: number };

export type ScaleData = {
  categories: ScaleCategory[];
  /** The category holding BIG_SHARE of the leads. */
  big: ScaleCategory;
  orders: number;
  orderLeads: number;
  /** The returning buyers' emails; the first has MOST_EARLIER earlier orders. */
  buyers: string[];
};

/** How many leads each category holds per country: the first BIG_SHARE, the others alike. */
export function categoryShares(leads: number): { title: string; usa: number; uk: number }[] {
  const big = Math.round(leads * BIG_SHARE);
  const others = DEMO_CATEGORIES.slice(1, 5);
  const each = Math.floor((leads - big) / others.length);
  const counts = [big, ...others.map((_, i) => (i === 0 ? leads - big - each * (others.length - 1) : each))];
  return counts.map((count, i) => {
    const usa = Math.round(count * USA_SHARE);
    return { title: DEMO_CATEGORIES[i].title, usa, uk: count - usa };
  });
}

/** Orders and returning buyers at this size: the full figures from 1,000,000 leads up. */
export function orderShares(leads: number): { orders: number; buyers: number } {
  const share = Math.min(1, leads / 1_000_000);
  return { orders: Math.round(ORDERS * share), buyers: Math.max(1, Math.round(RETURNING_BUYERS * share)) };
}

/**
 * Exactly `count` new leads of one country into a category. The generator repeats an address now
 * and then at these sizes (the insertion skips it), so it runs again with the next seed for the rest.
 */
async function fill(pool: Pool, category: ScaleCategory, country: Location, count: number, seed: number) {
  let inserted = 0;
  for (let round = 0; inserted < count; round++) {
    if (round === 20) throw new Error(`${category.title}: only ${inserted} of ${count} ${country} leads`);
    const batches = leadBatches(count - inserted, {
      seed: seed + round * 7,
      category: category.title,
      country,
      statuses: true,
    });
    inserted += (await insertLeadStream(pool, category.id, batches)).inserted;
  }
}

type PlannedOrder = { category: number; location: Location; buyer: string; daysAgo: number };

/** Who bought what: the returning buyers' orders first, then one-off buyers' ones. */
function planOrders(categories: ScaleCategory[], orders: number, buyers: string[]): PlannedOrder[] {
  const next = random(34);
  const pickCategory = () => (next() < BIG_SHARE ? 0 : 1 + Math.floor(next() * (categories.length - 1)));
  const planned: PlannedOrder[] = [];
  const add = (buyer: string) =>
    planned.push({
      category: pickCategory(),
      location: next() < USA_SHARE ? "USA" : "UK",
      buyer,
      daysAgo: next() * 60,
    });
  for (const [index, buyer] of buyers.entries()) {
    const earlier =
      index === 0 ? MOST_EARLIER : FEWEST_EARLIER + Math.floor(next() * (MOST_EARLIER - FEWEST_EARLIER + 1));
    for (let i = 0; i < earlier && planned.length < orders; i++) add(buyer);
  }
  for (let i = 0; planned.length < orders; i++) add(`buyer${i}@example.net`);
  return planned;
}

/** Creates the orders, paid, each with (at most) ORDER_LEADS consecutive leads of its category and country. */
async function createOrders(
  pool: Pool,
  categories: ScaleCategory[],
  planned: PlannedOrder[],
): Promise<number> {
  const next = random(3434);
  // The leads were inserted category by category, country by country: each is one range of ids.
  const { rows: ranges } = await pool.query<{
    category_id: string;
    country: Location;
    low: string;
    high: string;
  }>(
    `SELECT category_id, country, min(id)::text AS low, max(id)::text AS high FROM leads
      WHERE category_id = ANY($1::uuid[]) GROUP BY 1, 2`,
    [categories.map((category) => category.id)],
  );
  const startOf = (order: PlannedOrder): string => {
    const range = ranges.find(
      (row) => row.category_id === categories[order.category].id && row.country === order.location,
    );
    if (!range) return "0";
    const span = Number(BigInt(range.high) - BigInt(range.low)) - ORDER_SPAN;
    return (BigInt(range.low) + BigInt(Math.max(0, Math.floor(next() * span)))).toString();
  };
  let orderLeads = 0;
  const BATCH = 500;
  for (let at = 0; at < planned.length; at += BATCH) {
    const batch = planned.slice(at, at + BATCH);
    const ids = batch.map(() => randomUUID());
    await pool.query(
      `INSERT INTO orders (id, category_id, lead_title, package_type, lead_count, location, amount, status,
                           paid_at, paid_amount, buyer_email, download_expires_at, created_at)
       SELECT id, category_id, title, 'starter', ${ORDER_LEADS}, location, 99, 'finished', paid, 99, buyer,
              paid + interval '30 days', paid
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::"Country"[], $5::text[], $6::float8[])
           AS p(id, category_id, title, location, buyer, days_ago)
        CROSS JOIN LATERAL (SELECT now() - days_ago * interval '1 day' AS paid) t`,
      [
        ids,
        batch.map((order) => categories[order.category].id),
        batch.map((order) => categories[order.category].title),
        batch.map((order) => order.location),
        batch.map((order) => order.buyer),
        batch.map((order) => order.daysAgo),
      ],
    );
    // A range of ids, a little wider than the order for the ids the load skipped, read by the primary
    // key (OFFSET 0 keeps the category's own index, which the planner prefers, out of it).
    const { rowCount } = await pool.query(
      `INSERT INTO order_leads (order_id, position, lead_id)
       SELECT order_id, position, lead_id FROM (
         SELECT o.id AS order_id, row_number() OVER (PARTITION BY o.id ORDER BY l.id) AS position, l.id AS lead_id
           FROM unnest($1::uuid[], $2::bigint[]) AS p(id, start_id)
           JOIN orders o ON o.id = p.id
          CROSS JOIN LATERAL (SELECT id, category_id, country FROM leads
                                WHERE id >= p.start_id AND id < p.start_id + ${ORDER_SPAN} OFFSET 0) l
          WHERE l.category_id = o.category_id AND l.country = o.location) AS chosen
        WHERE position <= ${ORDER_LEADS}`,
      [ids, batch.map(startOf)],
    );
    orderLeads += rowCount ?? 0;
  }
  return orderLeads;
}

/** Loads the store's data into an empty, migrated database; `log` hears of each step. */
export async function loadScaleData(
  pool: Pool,
  leads: number,
  log: (line: string) => void = () => undefined,
): Promise<ScaleData> {
  const categories: ScaleCategory[] = [];
  for (const [index, share] of categoryShares(leads).entries()) {
    const { rows } = await pool.query<{ id: string }>(
      "INSERT INTO categories (title, description) VALUES ($1, $2) RETURNING id",
      [share.title, DEMO_CATEGORIES[index].description],
    );
    const category = { id: rows[0].id, ...share };
    const started = Date.now();
    await fill(pool, category, "USA", share.usa, 1 + index * 100);
    await fill(pool, category, "UK", share.uk, 50 + index * 100);
    log(`${share.title}: ${(share.usa + share.uk).toLocaleString("en-US")} leads in ${seconds(started)}`);
    categories.push(category);
  }
  const shares = orderShares(leads);
  const buyers = Array.from({ length: shares.buyers }, (_, i) => `returning${i}@example.org`);
  const started = Date.now();
  const orderLeads = await createOrders(pool, categories, planOrders(categories, shares.orders, buyers));
  log(
    `${shares.orders.toLocaleString("en-US")} paid orders, ${orderLeads.toLocaleString("en-US")} order_leads in ${seconds(started)}`,
  );
  const analyzed = Date.now();
  await pool.query("VACUUM ANALYZE");
  log(`VACUUM ANALYZE in ${seconds(analyzed)}`);
  return { categories, big: categories[0], orders: shares.orders, orderLeads, buyers };
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}
