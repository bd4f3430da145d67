// npm run bench:scale - whether each operation's cost stays flat as the catalogue grows (docs/scaling.md).
// Two sizes side by side in one run (SCALE_SIZES, default 1,000,000 and 10,000,000 leads), each in a
// throw-away database of its own, loaded by scripts/scale-data.ts and served by the production build
// (`npm run build`, or NEXT_DIST_DIR), each size in a process of its own (the product's code reads
// one DATABASE_URL per process). At each size it measures, in milliseconds:
//   segment_p95              the segment endpoint's p95 over 200 random filter combinations;
//   category_page[_changed]  the big category's page, time to first byte, cached (median of 30) and
//                            right after a catalogue change (median of 10);
//   categories_api[_changed] GET /api/categories the same way;
//   allocation_plain         a premium order's allocation (20,000 leads of the big category), a new
//                            buyer, no list; _list with a 100,000-entry exclusion list; _returning for
//                            the buyer with 50 earlier orders (median of 5 each, rolled back);
//   csv_download[_10]        a premium order's CSV to its last byte (median of 5), and 10 at once;
//   recheck_claim            the re-check worker's claim of 200 due leads (median of 5, rolled back);
//   admin_stats, admin_sales_page50, admin_categories   the admin's reads (median of 20);
//   import_per_row           a 100,000-row CSV import into the big category, per row;
//   replacement_claim        a claim of 1,001 addresses on a premium order (median of 3): 1,000 is its
//                            threshold (5% of 20,000), which is refused before any swap.
// Then `ratio NAME_LARGE_vs_SMALL=N` per figure (large time / small time), the sizes named as
// 10m, 100k, 20k...: with the default sizes `NAME_10m_vs_1m`. Target: at most 1.5 (import_per_row
// 1.2); where a ratio misses it, the statements of the operation are run again in this process at the
// large size and their EXPLAIN (ANALYZE, BUFFERS) printed. Also the server's memory growth (RSS of its
// processes, from /proc) at each size. Refuses to start with under 12 GB free for PostgreSQL's data.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { once } from "node:events";
import { createWriteStream, openAsBlob, rmSync, statfsSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { SignJWT } from "jose";
import pg, { Pool } from "pg";
import { leadBatches } from "../prisma/demo-data";
import { startAppServer, type AppServer } from "../tests/support/app-server";
import { createTestDatabase, ADMIN_DATABASE_URL } from "../tests/support/database";
import { startDnsServer } from "../tests/support/dns-server";
import { recordStatements } from "../tests/support/statements";
import { combinations, median, percentile, processTree, rss, segmentQuery } from "./bench-stats";

const MB = 1024 * 1024;
import { loadScaleData, type ScaleData } from "./scale-data";

const SIZES = (process.env.SCALE_SIZES ?? "1000000,10000000").split(",").map(Number);
const FREE_BYTES_NEEDED = 12 * 1024 ** 3;
const APP_SECRET = "bench-scale-secret-0123456789-0123456789";
const PREMIUM = 20_000;
const LIST_ENTRIES = 100_000;
const IMPORT_ROWS = 100_000;
const CLAIMED = 1001;
/** Premium orders: 5 for the downloads (2 at once each), 3 for the claims. */
const DOWNLOAD_ORDERS = 5;
const CLAIM_ORDERS = 3;

type Figures = Record<string, number>;
/** Each figure's largest acceptable ratio of the large size to the small. */
const TARGETS: Figures = { import_per_row: 1.2 };
const TARGET = 1.5;

/** 10m, 1m, 100k, 20k, 1500. */
function sizeName(size: number): string {
  if (size % 1_000_000 === 0) return `${size / 1_000_000}m`;
  if (size % 1000 === 0) return `${size / 1000}k`;
  return String(size);
}

const since = (started: number) => performance.now() - started;

type Timed = { first: number; all: number; status: number; lines: number };

/** One GET over loopback: milliseconds to the first byte of the body and to its end. */
function get(url: string, headers: Record<string, string> = {}): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(url, { headers, agent: false }, (response) => {
      let first = 0;
      let lines = 0;
      response.on("data", (chunk: Buffer) => {
        first ||= since(started);
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      });
      response.on("error", reject);
      response.on("end", () =>
        resolve({ first, all: since(started), status: response.statusCode ?? 0, lines }),
      );
    });
    request.on("error", reject);
  });
}

async function ok(url: string, headers: Record<string, string> = {}): Promise<Timed> {
  const answer = await get(url, headers);
  if (answer.status !== 200) throw new Error(`${url}: HTTP ${answer.status}`);
  return answer;
}

/** The free bytes of the file system holding PostgreSQL's data (this machine's /tmp if unreadable). */
async function freeBytes(): Promise<{ where: string; bytes: number }> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ data_directory: string }>("SHOW data_directory");
    const where = rows[0].data_directory;
    const stats = statfsSync(where);
    return { where, bytes: stats.bavail * stats.bsize };
  } catch {
    const stats = statfsSync(tmpdir());
    return { where: tmpdir(), bytes: stats.bavail * stats.bsize };
  } finally {
    await client.end();
  }
}

// ---- One size, in a process of its own ----

/**
 * Runs `work` while recording every statement this process sends, then prints the EXPLAIN (ANALYZE,
 * BUFFERS) of each in one transaction rolled back (a COPY's query alone).
 */
async function explainStatements(label: string, pool: Pool, work: () => Promise<unknown>): Promise<void> {
  const seen = await recordStatements(work);
  console.log(`\nEXPLAIN (ANALYZE, BUFFERS) of ${label}'s statements:`);
  const copied = /^\s*COPY\s+\(([\s\S]*)\)\s+TO\s+STDOUT/i;
  // One transaction, as the operation's own: a setting one statement makes (set_config(..., true))
  // holds for the next; each statement under a savepoint, so one that fails leaves the others.
  const client = await pool.connect();
  // The statements triggers run (a sale's writes to lead_sales and unsold_leads) have plans of their
  // own, which EXPLAIN shows only as a trigger's total: auto_explain sends each as a notice (those
  // of 5 ms or more, which leaves out the foreign keys' checks, thousands of tiny ones).
  const nested: string[] = [];
  const onNotice = (notice: { message?: string }) => {
    const plan = notice.message?.replace(/^duration: [\d.]+ ms\s+plan:\n/, "") ?? "";
    if (plan.startsWith("Query Text:") && !/^Query Text: EXPLAIN\b/.test(plan)) nested.push(plan);
  };
  const autoExplain = await client
    .query(
      `LOAD 'auto_explain'; SET auto_explain.log_min_duration = 5; SET auto_explain.log_analyze = on;
       SET auto_explain.log_buffers = on; SET auto_explain.log_nested_statements = on;
       SET auto_explain.log_level = notice`,
    )
    .then(() => {
      client.on("notice", onNotice);
      return true;
    })
    .catch((error: Error) => {
      console.log(`(the triggers' statements not explained: ${error.message})`);
      return false;
    });
  try {
    await client.query("BEGIN");
    for (const statement of seen) {
      const text = copied.exec(statement.text)?.[1] ?? statement.text;
      if (!/^\s*(?:SELECT|WITH|INSERT|UPDATE|DELETE)\b/i.test(text)) continue;
      await client.query("SAVEPOINT statement");
      nested.length = 0;
      try {
        const { rows } = await client.query<{ "QUERY PLAN": string }>(
          `EXPLAIN (ANALYZE, BUFFERS) ${text}`,
          statement.values,
        );
        await client.query("RELEASE SAVEPOINT statement");
        console.log(`-- ${text.replace(/\s+/g, " ").slice(0, 300)}`);
        for (const row of rows) console.log(`   ${row["QUERY PLAN"]}`);
        for (const plan of nested) console.log(plan.replace(/^/gm, "   | "));
      } catch (error) {
        await client.query("ROLLBACK TO SAVEPOINT statement");
        console.log(
          `-- (not explained: ${(error as Error).message}) ${text.replace(/\s+/g, " ").slice(0, 200)}`,
        );
      }
    }
  } finally {
    await client.query("ROLLBACK");
    if (autoExplain) {
      client.off("notice", onNotice);
      await client.query("RESET auto_explain.log_min_duration");
    }
    client.release();
  }
}

async function adminToken(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ id: string; password_changed_at: Date }>(
    `INSERT INTO admins (email, password_hash) VALUES ('scale@example.com', 'x') RETURNING id, password_changed_at`,
  );
  return new SignJWT({ pwv: new Date(rows[0].password_changed_at).getTime() })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(rows[0].id)
    .setIssuer("leadmarket")
    .setAudience("leadmarket-admin")
    .setIssuedAt()
    .setExpirationTime("4h")
    .sign(new TextEncoder().encode(APP_SECRET));
}

/** A paid premium order of the big category's USA leads, not yet allocated. */
async function premiumOrder(pool: Pool, data: ScaleData, buyer: string, listId: string | null = null) {
  const { rows } = await pool.query<{ id: string; download_key: string; paid_at: Date }>(
    `INSERT INTO orders (category_id, lead_title, package_type, lead_count, location, amount, status, paid_at,
                         buyer_email, suppression_list_id, download_expires_at)
     VALUES ($1, $2, 'premium', $3, 'USA', 999, 'finished', now(), $4, $5, now() + interval '30 days')
     RETURNING id, download_key, paid_at`,
    [data.big.id, data.big.title, PREMIUM, buyer, listId],
  );
  const order = rows[0];
  return {
    id: order.id,
    key: order.download_key,
    paidAt: order.paid_at,
    categoryId: data.big.id,
    leadCount: PREMIUM,
    location: "USA" as const,
    segment: null,
    buyerEmail: buyer,
    suppressionListId: listId,
  };
}

/** A CSV of LIST_ENTRIES addresses: every 40th of the big category's USA leads, then others. */
async function listFile(pool: Pool, data: ScaleData): Promise<Buffer> {
  const { rows } = await pool.query<{ email: string }>(
    `SELECT email FROM leads WHERE category_id = $1 AND country = 'USA' AND id % 40 = 0 LIMIT $2`,
    [data.big.id, LIST_ENTRIES / 2],
  );
  const lines = ["Name,Email", ...rows.map((row, i) => `Listed ${i},${row.email}`)];
  for (let i = 0; lines.length <= LIST_ENTRIES; i++)
    lines.push(`Other ${i},someone${i}@elsewhere${i % 500}.example`);
  return Buffer.from(lines.join("\n"));
}

/** A CSV of IMPORT_ROWS new leads for the big category (new addresses), and their domains. */
async function importFile(file: string): Promise<string[]> {
  const domains = new Set<string>();
  const out = createWriteStream(file);
  const cell = (value: string) => `"${value.replaceAll('"', '""')}"`;
  out.write(
    "First Name,Last Name,Job Title,Company,Email,Phone,City,State,Country,LinkedIn URL,Seniority,Department,Company Size,Revenue\n",
  );
  for (const batch of leadBatches(IMPORT_ROWS, { seed: 4242, category: "Marketing", country: "USA" })) {
    let text = "";
    for (const lead of batch) {
      const [local, domain] = lead.email.split("@");
      domains.add(domain);
      text += `${[lead.firstName, lead.lastName, lead.jobTitle, lead.company, `import.${local}@${domain}`, lead.phone, lead.city, lead.state, lead.country, lead.profileUrl, lead.seniority, lead.department, lead.companySize, lead.companyRevenue].map(cell).join(",")}\n`;
    }
    if (!out.write(text)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return [...domains];
}

async function measureSize(size: number, baseline: Figures | null): Promise<void> {
  const database = await createTestDatabase("leadmarket_bench_scale");
  process.env.DATABASE_URL = database.url;
  const pool = new Pool({ connectionString: database.url, max: 12 });
  pool.on("error", () => undefined);
  const csvFile = path.join(tmpdir(), `bench-scale-${process.pid}.csv`);
  let server: AppServer | undefined;
  let dns: Awaited<ReturnType<typeof startDnsServer>> | undefined;
  const figures: Figures = {};
  try {
    console.log(`\n== ${size.toLocaleString("en-US")} leads ==`);
    const loading = performance.now();
    const data = await loadScaleData(pool, size, (line) => console.log(`  ${line}`));
    console.log(`  loaded in ${(since(loading) / 1000).toFixed(1)} s`);
    const domains = await importFile(csvFile);
    dns = await startDnsServer({
      zone: Object.fromEntries(
        domains.map((domain) => [domain, { mx: [{ exchange: "mx.scale.test", priority: 10 }] }]),
      ),
    });
    const token = await adminToken(pool);
    server = await startAppServer({
      env: {
        DATABASE_URL: database.url,
        APP_SECRET,
        PAYMENTS_TEST_MODE: "0",
        SMTP_URL: "",
        DNS_SERVERS: dns.address,
        // The benchmark names each buyer in X-Forwarded-For.
        TRUST_PROXY_HOPS: "1",
      },
      stdout: "ignore",
    });
    const pids = processTree(server.process.pid!);
    const rssStart = rss(pids) / MB;
    let rssPeak = rssStart;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rss(pids) / MB)), 200);
    const admin = { authorization: `Bearer ${token}` };
    const url = server.url;

    const { closeDatabase, transaction, pool: appPool } = await import("../lib/db");
    const { allocateLeads } = await import("../lib/orders/settle");
    const { createSuppressionList } = await import("../lib/suppression/lists");
    const { claimDue } = await import("../lib/leads/recheck/claim-due");
    const { dueBefore } = await import("../lib/leads/recheck-queue");
    const { claimReplacement } = await import("../lib/orders/replacement/claim");
    const { segmentCounts } = await import("../lib/segments/counts");
    const { listCategories, findCategory, listAllCategories } = await import("../lib/categories/public");
    const { getStats } = await import("../lib/dashboard/stats");
    const { listSales } = await import("../lib/orders/admin");
    const { openDownload } = await import("../lib/leads/download");
    const { pgTransaction } = await import("../lib/pg-transaction");
    const { insertLeadStream } = await import("../lib/leads/insert");
    const explains: Record<string, () => Promise<unknown>> = {};
    try {
      // Segment counts, the endpoint warmed with other combinations first.
      for (const combination of combinations(20, 2026))
        await ok(`${url}/api/categories/${data.big.id}/segment?${segmentQuery(combination)}`);
      const segmentTimes: number[] = [];
      const measured = combinations(200, 26);
      for (const combination of measured)
        segmentTimes.push(
          (await ok(`${url}/api/categories/${data.big.id}/segment?${segmentQuery(combination)}`)).all,
        );
      figures.segment_p95 = percentile(segmentTimes, 0.95);
      const slowest = measured[segmentTimes.indexOf(Math.max(...segmentTimes))];
      explains.segment_p95 = () => segmentCounts(data.big.id, slowest.location, slowest.filters);

      // The catalogue's reads, cached and right after a change.
      const change = () => pool.query("UPDATE catalogue_version SET version = version + 1 WHERE id = 1");
      for (const [name, target, explain] of [
        ["category_page", `/category/${data.big.id}`, () => findCategory(data.big.id)],
        ["categories_api", "/api/categories", () => listCategories()],
      ] as const) {
        await ok(`${url}${target}`);
        const cached: number[] = [];
        for (let i = 0; i < 30; i++) cached.push((await ok(`${url}${target}`)).first);
        const changed: number[] = [];
        for (let i = 0; i < 10; i++) {
          await change();
          changed.push((await ok(`${url}${target}`)).first);
        }
        figures[name] = median(cached);
        figures[`${name}_changed`] = median(changed);
        explains[name] = explains[`${name}_changed`] = explain;
      }

      // Premium allocation, each run rolled back.
      class Rollback extends Error {}
      const allocation = async (order: Awaited<ReturnType<typeof premiumOrder>>): Promise<number> => {
        const times: number[] = [];
        for (let run = 0; run < 5; run++) {
          await transaction(async (tx) => {
            const started = performance.now();
            await allocateLeads(tx, order);
            times.push(since(started));
            throw new Rollback();
          }, 600_000).catch((error: unknown) => {
            if (!(error instanceof Rollback)) throw error;
          });
        }
        return median(times);
      };
      const allocateOnce = (order: Awaited<ReturnType<typeof premiumOrder>>) => () =>
        transaction(async (tx) => {
          await allocateLeads(tx, order);
          throw new Rollback();
        }, 600_000).catch((error: unknown) => {
          if (!(error instanceof Rollback)) throw error;
        });
      const list = await createSuppressionList(
        {
          parts: (async function* () {
            yield {
              name: "file",
              fileName: "customers.csv",
              file: Readable.from([await listFile(pool, data)]),
            };
          })(),
        },
        { clientIp: "10.8.0.1" },
      );
      const plain = await premiumOrder(pool, data, "new.buyer@example.com");
      const listed = await premiumOrder(pool, data, "listing.buyer@example.com", list.suppressionListId);
      const returning = await premiumOrder(pool, data, data.buyers[0]);
      await pool.query("ANALYZE");
      figures.allocation_plain = await allocation(plain);
      figures.allocation_list = await allocation(listed);
      figures.allocation_returning = await allocation(returning);
      explains.allocation_plain = allocateOnce(plain);
      explains.allocation_list = allocateOnce(listed);
      explains.allocation_returning = allocateOnce(returning);

      // Downloads of premium orders, allocated for good.
      const orders: Awaited<ReturnType<typeof premiumOrder>>[] = [];
      for (let i = 0; i < DOWNLOAD_ORDERS + CLAIM_ORDERS; i++) {
        const order = await premiumOrder(pool, data, `premium${i}@example.com`);
        await transaction((tx) => allocateLeads(tx, order), 600_000);
        orders.push(order);
      }
      await pool.query("VACUUM ANALYZE orders, order_leads, lead_sales, unsold_leads");
      // Under about 90,000 leads the big category has fewer USA leads than a premium order.
      const { rows: held } = await pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM order_leads WHERE order_id = $1",
        [orders[0].id],
      );
      console.log(`  a premium order holds ${held[0].n.toLocaleString("en-US")} leads`);
      // A 503 (no COPY connection within its wait, seen on a busy machine) is retried a second later,
      // as a browser would, and counted: the figure is the buyer's whole wait.
      let busy = 0;
      const download = async (index: number, buyer: number): Promise<Timed> => {
        const target = `${url}/api/leads/download/${orders[index].key}`;
        const headers = { "x-forwarded-for": `10.7.${buyer >> 8}.${buyer & 255}` };
        const started = performance.now();
        for (let attempt = 0; attempt < 5; attempt++) {
          const answer = await get(target, headers);
          if (answer.status === 200) return { ...answer, all: since(started) };
          if (answer.status !== 503) break;
          busy += 1;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
        throw new Error(`${target}: no download after 5 attempts`);
      };
      for (let i = 0; i < 2; i++) await download(0, 1);
      const single: number[] = [];
      for (let i = 0; i < 5; i++) single.push((await download(i % DOWNLOAD_ORDERS, 2 + i)).all);
      figures.csv_download = median(single);
      const tens: number[] = [];
      for (let run = 0; run < 3; run++) {
        const started = performance.now();
        await Promise.all(
          Array.from({ length: 10 }, (_, i) => download(i % DOWNLOAD_ORDERS, 100 + run * 10 + i)),
        );
        tens.push(since(started));
      }
      figures.csv_download_10 = median(tens);
      if (busy) console.log(`  downloads answered 503 and retried: ${busy}`);
      explains.csv_download = explains.csv_download_10 = async () => {
        const stream = await openDownload({ id: orders[0].id, packageType: "premium" }, "csv", "10.6.0.1");
        const reader = stream.getReader();
        while (!(await reader.read()).done);
      };

      // The re-check worker's claim of 200 due leads: it only locks them, until its transaction ends.
      const claim = () =>
        pgTransaction(appPool(), async (client) => {
          const started = performance.now();
          const claimed = await claimDue(client, "0", dueBefore(new Date()), new Date());
          if (claimed.length !== 200) throw new Error(`re-check claim: ${claimed.length} leads`);
          return since(started);
        });
      const claims: number[] = [];
      for (let run = 0; run < 6; run++) claims.push(await claim());
      figures.recheck_claim = median(claims.slice(1));
      explains.recheck_claim = claim;

      // The admin's reads.
      for (const [name, target, explain] of [
        ["admin_stats", "/api/admin/stats", () => getStats()],
        [
          "admin_sales_page50",
          "/api/admin/sales?page=50",
          () => listSales({ page: 50, pageSize: 100, order: "desc" }),
        ],
        ["admin_categories", "/api/admin/categories", () => listAllCategories()],
      ] as const) {
        for (let i = 0; i < 2; i++) await ok(`${url}${target}`, admin);
        const times: number[] = [];
        for (let i = 0; i < 20; i++) times.push((await ok(`${url}${target}`, admin)).all);
        figures[name] = median(times);
        explains[name] = explain;
      }

      // A replacement claim per order, 1,001 of its leads found invalid by a re-check before it.
      const replacements: number[] = [];
      for (const order of orders.slice(DOWNLOAD_ORDERS)) {
        const { rows } = await pool.query<{ email: string }>(
          `UPDATE leads SET email_status = 'invalid' WHERE id IN (
             SELECT lead_id FROM order_leads WHERE order_id = $1 ORDER BY position LIMIT $2)
           RETURNING email`,
          [order.id, CLAIMED],
        );
        const started = performance.now();
        const answer = await claimReplacement(
          order,
          rows.map((row) => row.email),
        );
        replacements.push(since(started));
        if (!answer.accepted) throw new Error(`replacement claim refused: ${JSON.stringify(answer)}`);
      }
      figures.replacement_claim = median(replacements);
      explains.replacement_claim = async () => {
        const order = orders[DOWNLOAD_ORDERS];
        const { rows } = await pool.query<{ email: string }>(
          `SELECT l.email FROM order_leads ol JOIN leads l ON l.id = ol.lead_id WHERE ol.order_id = $1 LIMIT $2`,
          [order.id, CLAIMED],
        );
        // Filed again: refused (one claim per order) after the lookups a claim makes first.
        await claimReplacement(
          order,
          rows.map((row) => row.email),
        ).catch(() => undefined);
      };

      // The import, last: it adds 100,000 leads to the big category.
      const form = new FormData();
      form.append("file", await openAsBlob(csvFile, { type: "text/csv" }), "import.csv");
      const io = () =>
        pool.query<{ lsn: string; reads: number }>(
          `SELECT pg_current_wal_lsn()::text AS lsn, blks_read::float8 AS reads
             FROM pg_stat_database WHERE datname = current_database()`,
        );
      const [ioBefore] = (await io()).rows;
      const started = performance.now();
      const response = await fetch(`${url}/api/admin/categories/${data.big.id}/leads`, {
        method: "POST",
        headers: admin,
        body: form,
      });
      const report = (await response.json()) as { imported: number };
      const importMs = since(started);
      if (!response.ok) throw new Error(`import: HTTP ${response.status} ${JSON.stringify(report)}`);
      figures.import_per_row = importMs / IMPORT_ROWS;
      console.log(
        `  import: ${report.imported.toLocaleString("en-US")} of ${IMPORT_ROWS.toLocaleString("en-US")} rows in ${(importMs / 1000).toFixed(1)} s`,
      );
      // What the import's writes cost PostgreSQL: a backend reports its block reads once idle.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const [ioAfter] = (await io()).rows;
      const { rows: wal } = await pool.query<{ bytes: number }>(
        "SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::float8 AS bytes",
        [ioAfter.lsn, ioBefore.lsn],
      );
      console.log(
        `  import: ${(wal[0].bytes / IMPORT_ROWS / 1024).toFixed(1)} KB of WAL and ${((ioAfter.reads - ioBefore.reads) / IMPORT_ROWS).toFixed(2)} blocks read from outside shared buffers a row`,
      );
      // The import's reads, on 5,000 new rows: the category's emails (to tell repeats), which grow
      // with the category, and the count of the rows it added.
      explains.import_per_row = () =>
        insertLeadStream(appPool(), data.big.id, [
          [...leadBatches(5000, { seed: 4343, category: "Marketing", country: "USA" })]
            .flat()
            .map((lead) => ({ ...lead, email: `explain.${lead.email}` })),
        ]);

      clearInterval(sampler);
      console.log(
        `  server RSS: ${rssStart.toFixed(0)} MB at start, at most ${rssPeak.toFixed(0)} MB: growth ${(rssPeak - rssStart).toFixed(0)} MB`,
      );
      figures.server_rss_growth_mb = rssPeak - rssStart;
      for (const [name, value] of Object.entries(figures)) console.log(`  ${name}: ${value.toFixed(3)}`);

      if (baseline) {
        for (const [name, value] of Object.entries(figures)) {
          const explain = explains[name];
          if (!explain || !baseline[name]) continue;
          if (value / baseline[name] > (TARGETS[name] ?? TARGET)) {
            console.log(`\n${name}: ${(value / baseline[name]).toFixed(2)} times the small size's`);
            await explainStatements(name, pool, explain);
          }
        }
      }
    } finally {
      clearInterval(sampler);
      await closeDatabase();
    }
    console.log(`figures ${JSON.stringify(figures)}`);
  } finally {
    await server?.stop();
    await dns?.close();
    await pool.end();
    await database.drop();
    rmSync(csvFile, { force: true });
  }
}

// ---- The run: each size in a child process, then the ratios ----

async function main(): Promise<void> {
  if (
    SIZES.length !== 2 ||
    SIZES.some((size) => !Number.isInteger(size) || size < 10_000) ||
    SIZES[0] >= SIZES[1]
  ) {
    throw new Error("SCALE_SIZES: two sizes of at least 10000 leads, the smaller first (e.g. 20000,100000)");
  }
  const free = await freeBytes();
  if (free.bytes < FREE_BYTES_NEEDED) {
    console.error(
      `bench:scale needs 12 GB free for PostgreSQL's data (${free.where}); only ${(free.bytes / 1024 ** 3).toFixed(1)} GB are. Free some space first.`,
    );
    process.exit(1);
  }
  console.log(`${(free.bytes / 1024 ** 3).toFixed(0)} GB free at ${free.where}`);
  const results: Figures[] = [];
  for (const size of SIZES) {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", import.meta.filename],
      {
        stdio: ["ignore", "pipe", "inherit"],
        env: {
          ...process.env,
          SCALE_ONE: String(size),
          SCALE_BASELINE: results[0] ? JSON.stringify(results[0]) : "",
        },
      },
    );
    let last = "";
    for await (const line of createInterface({ input: child.stdout })) {
      if (line.startsWith("figures ")) last = line;
      else console.log(line);
    }
    const [code] = (await once(child, "close")) as [number | null];
    if (code !== 0 || !last) throw new Error(`The run of ${size} leads failed (exit code ${code})`);
    results.push(JSON.parse(last.slice("figures ".length)) as Figures);
  }
  const [small, large] = results;
  const names = [sizeName(SIZES[0]), sizeName(SIZES[1])];
  console.log(`\n${"figure (ms)".padEnd(24)}${names[0].padStart(12)}${names[1].padStart(12)}  target`);
  for (const name of Object.keys(small)) {
    const target = name === "server_rss_growth_mb" ? "" : `<= ${TARGETS[name] ?? TARGET}`;
    console.log(
      `${name.padEnd(24)}${small[name].toFixed(3).padStart(12)}${large[name].toFixed(3).padStart(12)}  ${target}`,
    );
  }
  console.log("");
  for (const name of Object.keys(small)) {
    if (name === "server_rss_growth_mb") continue;
    console.log(`ratio ${name}_${names[1]}_vs_${names[0]}=${(large[name] / small[name]).toFixed(2)}`);
  }
  console.log(
    `server_rss_growth_mb ${names[0]}=${small.server_rss_growth_mb.toFixed(0)} ${names[1]}=${large.server_rss_growth_mb.toFixed(0)} (target: under 300 at 10m)`,
  );
}

if (process.env.SCALE_ONE) {
  await measureSize(
    Number(process.env.SCALE_ONE),
    process.env.SCALE_BASELINE ? (JSON.parse(process.env.SCALE_BASELINE) as Figures) : null,
  );
} else {
  await main();
}
