// The data of `npm run bench:scale` (scripts/scale-data.ts) is the store's own: every facet it
// stores is a value of the vocabularies (lib/segments/vocabularies.ts, regions of the lead's own
// country), every status one of the EmailStatus enum's in the demo's spread, and each category, order
// and order_leads figure is what the generator promises. Counts only its own categories: the
// worker's database holds other files' data too.
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmailStatus } from "@/lib/generated/prisma/enums";
import { FACETS, facetValues } from "@/lib/segments/vocabularies";
import { categoryShares, loadScaleData, orderShares, type ScaleData } from "@/scripts/scale-data";

const LEADS = 4000;
const pool = new Pool({ connectionString: process.env.DATABASE_URL });
let data: ScaleData;

beforeAll(async () => {
  data = await loadScaleData(pool, LEADS);
}, 120_000);

afterAll(() => pool.end());

const ids = () => data.categories.map((category) => category.id);

describe("bench:scale data", () => {
  it("holds the promised leads per category and country, the first category 40% of them", async () => {
    const { rows } = await pool.query<{ category_id: string; country: string; n: number }>(
      `SELECT category_id, country, count(*)::int AS n FROM leads WHERE category_id = ANY($1::uuid[])
        GROUP BY 1, 2`,
      [ids()],
    );
    const shares = categoryShares(LEADS);
    expect(shares.reduce((sum, share) => sum + share.usa + share.uk, 0)).toBe(LEADS);
    expect(shares[0].usa + shares[0].uk).toBe(LEADS * 0.4);
    for (const [index, category] of data.categories.entries()) {
      const held = (country: string) =>
        rows.find((row) => row.category_id === category.id && row.country === country)?.n;
      expect(held("USA")).toBe(shares[index].usa);
      expect(held("UK")).toBe(shares[index].uk);
    }
  });

  it("stores only the vocabularies' facet values, none unknown", async () => {
    for (const facet of FACETS) {
      const { rows } = await pool.query<{ country: "USA" | "UK"; value: string }>(
        `SELECT DISTINCT country::text AS country, facet_${facet} AS value FROM leads
          WHERE category_id = ANY($1::uuid[])`,
        [ids()],
      );
      for (const row of rows) {
        expect(facetValues(facet, row.country), `${facet} ${row.value}`).toContain(row.value);
        expect(row.value).not.toBe("unknown");
      }
      // Realistic spread: more than one value of each facet in each country.
      for (const country of ["USA", "UK"])
        expect(rows.filter((row) => row.country === country).length).toBeGreaterThan(1);
    }
  });

  it("gives the demo's statuses: 85% valid, 10% accept-all, 5% unknown, all sellable", async () => {
    const { rows } = await pool.query<{ status: string; n: number }>(
      `SELECT email_status::text AS status, count(*)::int AS n FROM leads WHERE category_id = ANY($1::uuid[])
        GROUP BY 1`,
      [ids()],
    );
    for (const row of rows) expect(Object.values(EmailStatus)).toContain(row.status);
    const share = (status: string) => (rows.find((row) => row.status === status)?.n ?? 0) / LEADS;
    expect(share("valid")).toBeCloseTo(0.85, 1);
    expect(share("accept_all")).toBeCloseTo(0.1, 1);
    expect(share("unknown")).toBeCloseTo(0.05, 1);
    expect(share("invalid")).toBe(0);
    const { rows: counts } = await pool.query<{ count: number }>(
      "SELECT count::int FROM categories WHERE id = ANY($1::uuid[])",
      [ids()],
    );
    expect(counts.reduce((sum, row) => sum + row.count, 0)).toBe(LEADS);
  });

  it("adds paid orders of the categories' own leads, the first returning buyer with 50", async () => {
    const expected = orderShares(LEADS);
    const { rows } = await pool.query<{
      orders: number;
      paid: number;
      buyer_orders: number;
      foreign: number;
    }>(
      `SELECT count(*)::int AS orders, count(*) FILTER (WHERE o.paid_at IS NOT NULL)::int AS paid,
              count(*) FILTER (WHERE o.buyer_email = $2)::int AS buyer_orders,
              (SELECT count(*)::int FROM order_leads ol JOIN orders x ON x.id = ol.order_id
                 JOIN leads l ON l.id = ol.lead_id
                WHERE x.category_id = ANY($1::uuid[])
                  AND (l.category_id <> x.category_id OR l.country <> x.location)) AS foreign
         FROM orders o WHERE o.category_id = ANY($1::uuid[])`,
      [ids(), data.buyers[0]],
    );
    expect(rows[0]).toEqual({ orders: expected.orders, paid: expected.orders, buyer_orders: 50, foreign: 0 });
    expect(data.buyers).toHaveLength(expected.buyers);
    expect(data.orders).toBe(expected.orders);
    expect(data.orderLeads).toBeGreaterThan(0);
  });
});
