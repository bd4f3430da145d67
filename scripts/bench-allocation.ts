// npm run bench:allocation - the cost of fair allocation, in a throw-away database: a premium
// order's allocation (20,000 leads of a 1,000,000-lead category, least sold first, its buyer's 50
// earlier orders excluded) against today's plain allocation of the same package (most recently
// verified first, no sold counter), alternated in one run, each in a transaction rolled back.
// Prints `ratio premium_allocation_vs_plain=N` (target: at most 2).
import { Pool, type PoolClient } from "pg";
import { createTestDatabase } from "../tests/support/database";
import { median } from "./bench-stats";

const { allocationInsert } = await import("../lib/leads/allocation");

const CATEGORY_LEADS = Number(process.env.BENCH_LEADS ?? 1_000_000);
const PREMIUM = 20_000;
const EARLIER_ORDERS = 50;
const RUNS = 5;
const BUYER = "returning.buyer@example.com";

/**
 * One category of CATEGORY_LEADS USA leads, 20 per company domain, verified on one of the last 120
 * days (an import's dates: thousands of leads share each verified_at).
 */
async function createCategory(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    "INSERT INTO categories (title) VALUES ('Bench Allocation') RETURNING id",
  );
  await pool.query(
    `INSERT INTO leads (category_id, first_name, last_name, email, country, verified_at)
     SELECT $1::uuid, 'First', 'Last', 'person' || g || '@company' || (g / 20) || '.example', 'USA',
            date_trunc('day', now()) - (g * 7919 % 120) * interval '1 day'
       FROM generate_series(1, $2::int) AS g`,
    [rows[0].id, CATEGORY_LEADS],
  );
  return rows[0].id;
}

async function newOrder(pool: Pool, categoryId: string, leadCount: number, paid: boolean): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO orders (category_id, lead_title, package_type, lead_count, amount, buyer_email, paid_at, status)
     VALUES ($1, 'Bench', $2, $3, 0, $4, $5, $6) RETURNING id`,
    [
      categoryId,
      leadCount === PREMIUM ? "premium" : "starter",
      leadCount,
      BUYER,
      paid ? new Date() : null,
      paid ? "finished" : "pending",
    ],
  );
  return rows[0].id;
}

/** Milliseconds of `statement` in a transaction that is then rolled back. */
async function timed(
  client: PoolClient,
  statement: { text: string; values: unknown[] },
  setup = "",
): Promise<number> {
  await client.query("BEGIN");
  try {
    if (setup) await client.query(setup);
    const started = process.hrtime.bigint();
    const { rowCount } = await client.query(statement.text, statement.values);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (rowCount !== PREMIUM) throw new Error(`Allocated ${rowCount} of ${PREMIUM} leads`);
    return ms;
  } finally {
    await client.query("ROLLBACK");
  }
}

async function main(): Promise<void> {
  const database = await createTestDatabase("leadmarket_bench_allocation");
  const pool = new Pool({ connectionString: database.url });
  try {
    const started = Date.now();
    const category = await createCategory(pool);
    console.log(
      `${CATEGORY_LEADS.toLocaleString("en-US")} leads loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const filter = { categoryId: category, country: "USA" as const };
    // The buyer's earlier orders, allocated as sales are: each takes the next unsold leads.
    for (let i = 0; i < EARLIER_ORDERS; i++) {
      const id = await newOrder(pool, category, 1000, true);
      const insert = allocationInsert(id, filter, 1000);
      await pool.query(insert.text, insert.values);
    }
    await pool.query("VACUUM ANALYZE");

    const plainOrder = await newOrder(pool, category, PREMIUM, false);
    const premiumOrder = await newOrder(pool, category, PREMIUM, false);
    // Today's statement (lib/orders/settle.ts before fair allocation), without the sold counter.
    const plain = {
      text: `INSERT INTO order_leads (order_id, position, lead_id)
        SELECT $1::uuid, row_number() OVER (ORDER BY verified_at DESC, id), id
          FROM (SELECT id, verified_at FROM leads
                 WHERE category_id = $2::uuid AND country = 'USA' AND lead_sellable(quarantined_at, email_status)
                 ORDER BY verified_at DESC, id LIMIT $3::int) AS chosen`,
      values: [plainOrder, category, PREMIUM],
    };
    const premium = allocationInsert(premiumOrder, filter, PREMIUM);

    const client = await pool.connect();
    try {
      const plainMs: number[] = [];
      const premiumMs: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        plainMs.push(
          await timed(client, plain, "ALTER TABLE order_leads DISABLE TRIGGER order_leads_sales_insert"),
        );
        premiumMs.push(await timed(client, premium));
      }
      const [p, q] = [median(plainMs), median(premiumMs)];
      console.log(
        `Plain allocation of ${PREMIUM.toLocaleString("en-US")} leads: median ${p.toFixed(1)} ms of ${RUNS}`,
      );
      console.log(
        `Premium allocation (${EARLIER_ORDERS} earlier orders of the buyer): median ${q.toFixed(1)} ms of ${RUNS}`,
      );
      console.log(`ratio premium_allocation_vs_plain=${(q / p).toFixed(2)}`);
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
    await database.drop();
  }
}

await main();
