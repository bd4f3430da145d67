// npm run bench:allocation - the cost of fair allocation, in a throw-away database: a premium
// order's allocation (20,000 leads of a 1,000,000-lead category: least sold first, none of the 50
// earlier orders of its buyer's email, 10 of them in another category of 100,000 leads sharing
// their emails with this one, none its 100,000-entry exclusion list names) against today's
// plain allocation of the same package (most recently verified first, no sold counter, no
// exclusions), alternated in one run, each in a transaction rolled back. Prints
// `ratio premium_allocation_vs_plain=N` (target: at most 2), and the seconds an upload of a
// 100,000-address list takes to read, hash and store (`ratio list_upload_100k_s=N`, target: under 2).
import { Readable } from "node:stream";
import { Pool } from "pg";
import { createTestDatabase } from "../tests/support/database";
import { median } from "./bench-stats";

const CATEGORY_LEADS = Number(process.env.BENCH_LEADS ?? 1_000_000);
const PREMIUM = 20_000;
const EARLIER_ORDERS = 50;
/** Of them, bought in another category whose leads share their emails with this one's. */
const EARLIER_ELSEWHERE = 10;
const ELSEWHERE_LEADS = 100_000;
const RUNS = 5;
const BUYER = "returning.buyer@example.com";
const LIST_ENTRIES = 100_000;
/** Every this many of the category's leads is on the buyer's list; the rest of it is elsewhere. */
const LISTED_EVERY = 100;

const database = await createTestDatabase("leadmarket_allocation_bench");
process.env.DATABASE_URL = database.url;
const { closeDatabase, transaction } = await import("../lib/db");
const { allocateLeads } = await import("../lib/orders/settle");
const { createSuppressionList } = await import("../lib/suppression/lists");

/**
 * A category of `count` USA leads, 20 per company domain, verified on one of the last 120 days (an
 * import's dates: thousands of leads share each verified_at). Categories share the emails of their
 * first leads, as the same people are listed in several.
 */
async function createCategory(pool: Pool, title: string, count: number): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    "INSERT INTO categories (title) VALUES ($1) RETURNING id",
    [title],
  );
  await pool.query(
    `INSERT INTO leads (category_id, first_name, last_name, email, country, verified_at)
     SELECT $1::uuid, 'First', 'Last', 'person' || g || '@company' || (g / 20) || '.example', 'USA',
            date_trunc('day', now()) - (g::bigint * 7919 % 120) * interval '1 day'
       FROM generate_series(1, $2::int) AS g`,
    [rows[0].id, count],
  );
  return rows[0].id;
}

type BenchOrder = {
  id: string;
  categoryId: string;
  leadCount: number;
  location: "USA";
  segment: null;
  buyerEmail: string;
  suppressionListId: string | null;
};

async function newOrder(pool: Pool, categoryId: string, leadCount: number): Promise<BenchOrder> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO orders (category_id, lead_title, package_type, lead_count, amount, buyer_email, paid_at, status)
     VALUES ($1, 'Bench', $2, $3, 0, $4, now(), 'finished') RETURNING id`,
    [categoryId, leadCount === PREMIUM ? "premium" : "starter", leadCount, BUYER],
  );
  return {
    id: rows[0].id,
    categoryId,
    leadCount,
    location: "USA",
    segment: null,
    buyerEmail: BUYER,
    suppressionListId: null,
  };
}

/**
 * A CSV of LIST_ENTRIES addresses as a buyer would upload it (a name beside each): one in
 * LISTED_EVERY of the category's leads, the rest addresses the category does not hold.
 */
function listFile(): Buffer {
  const lines = ["Name,Email"];
  for (let g = LISTED_EVERY; g <= CATEGORY_LEADS; g += LISTED_EVERY) {
    lines.push(`Listed ${g},person${g}@company${Math.floor(g / 20)}.example`);
  }
  for (let i = 0; lines.length <= LIST_ENTRIES; i++)
    lines.push(`Other ${i},someone${i}@elsewhere${i % 500}.example`);
  return Buffer.from(lines.join("\n"));
}

/** Uploads the list as the route hands it over; answers its id and the seconds it took. */
async function uploadList(file: Buffer, run: number): Promise<{ id: string; seconds: number }> {
  const started = process.hrtime.bigint();
  const parts = (async function* () {
    yield { name: "file", fileName: "customers.csv", file: Readable.from([file]) };
  })();
  const answer = await createSuppressionList({ parts }, { clientIp: `10.9.0.${run}` });
  if (answer.entries !== LIST_ENTRIES) throw new Error(`Stored ${answer.entries} of ${LIST_ENTRIES} entries`);
  return { id: answer.suppressionListId, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

class Rollback extends Error {}

/** Milliseconds of `work` in a transaction that is then rolled back. */
async function timed(work: Parameters<typeof transaction<number>>[0]): Promise<number> {
  let ms = 0;
  await transaction(async (tx) => {
    const started = process.hrtime.bigint();
    const allocated = await work(tx);
    ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (allocated !== PREMIUM) throw new Error(`Allocated ${allocated} of ${PREMIUM} leads`);
    throw new Rollback();
  }, 120_000).catch((error: unknown) => {
    if (!(error instanceof Rollback)) throw error;
  });
  return ms;
}

async function main(): Promise<void> {
  const pool = new Pool({ connectionString: database.url });
  // Dropping the database at the end ends the idle connections.
  pool.on("error", () => undefined);
  try {
    const started = Date.now();
    const category = await createCategory(pool, "Bench Allocation", CATEGORY_LEADS);
    const elsewhere = await createCategory(pool, "Bench Allocation Elsewhere", ELSEWHERE_LEADS);
    console.log(
      `${CATEGORY_LEADS.toLocaleString("en-US")} leads loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    await pool.query("VACUUM ANALYZE");
    // The buyer's earlier orders, allocated as sales are (each takes the next unsold leads); some in
    // the other category, whose leads this one holds under the same emails.
    for (let i = 0; i < EARLIER_ORDERS; i++) {
      const order = await newOrder(pool, i < EARLIER_ELSEWHERE ? elsewhere : category, 1000);
      await transaction((tx) => allocateLeads(tx, order), 120_000);
    }
    const file = listFile();
    const uploads: { id: string; seconds: number }[] = [];
    for (let run = 0; run < 3; run++) uploads.push(await uploadList(file, run));
    await pool.query("VACUUM ANALYZE");

    const plainOrder = await newOrder(pool, category, PREMIUM);
    const premiumOrder = { ...(await newOrder(pool, category, PREMIUM)), suppressionListId: uploads[0].id };
    await pool.query("UPDATE orders SET suppression_list_id = $1 WHERE id = $2", [
      uploads[0].id,
      premiumOrder.id,
    ]);
    const plainMs: number[] = [];
    const premiumMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Today's statement (lib/orders/settle.ts before fair allocation), without the sold counter.
      plainMs.push(
        await timed(async (tx) => {
          await tx.$executeRawUnsafe("ALTER TABLE order_leads DISABLE TRIGGER order_leads_sales_insert");
          return tx.$executeRaw`
            INSERT INTO order_leads (order_id, position, lead_id)
            SELECT ${plainOrder.id}::uuid, row_number() OVER (ORDER BY verified_at DESC, id), id
              FROM (SELECT id, verified_at FROM leads
                     WHERE category_id = ${category}::uuid AND country = 'USA' AND lead_sellable(quarantined_at, email_status, notice_status)
                     ORDER BY verified_at DESC, id LIMIT ${PREMIUM}::int) AS chosen`;
        }),
      );
      premiumMs.push(await timed((tx) => allocateLeads(tx, premiumOrder)));
    }
    const [plain, premium] = [median(plainMs), median(premiumMs)];
    console.log(
      `Plain allocation of ${PREMIUM.toLocaleString("en-US")} leads: median ${plain.toFixed(1)} ms of ${RUNS}`,
    );
    console.log(
      `Premium allocation (${EARLIER_ORDERS} earlier orders of the buyer, ${EARLIER_ELSEWHERE} of them in another category, a ${LIST_ENTRIES.toLocaleString("en-US")}-entry list): median ${premium.toFixed(1)} ms of ${RUNS}`,
    );
    const upload = median(uploads.map((run) => run.seconds));
    console.log(
      `List upload of ${LIST_ENTRIES.toLocaleString("en-US")} addresses (CSV, ${(file.length / 1024 / 1024).toFixed(1)} MB): median ${upload.toFixed(2)} s of ${uploads.length}`,
    );
    console.log(`ratio premium_allocation_vs_plain=${(premium / plain).toFixed(2)}`);
    console.log(`ratio list_upload_100k_s=${upload.toFixed(2)}`);
  } finally {
    await pool.end();
    await closeDatabase();
    await database.drop();
  }
}

await main();
