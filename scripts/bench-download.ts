// npm run bench:download - downloads of a premium order (20,000 leads) from the production build,
// in a throw-away database holding 1,000,000 leads, each figure against a baseline measured in the
// same run, the two alternating so that load from elsewhere on the machine hits both alike:
//   CSV (time to last byte over loopback)        vs PostgreSQL's own COPY ... TO STDOUT CSV of the
//                                                   same rows through pg-copy-streams;
//   10 simultaneous CSV downloads                vs 10 simultaneous such COPYs;
//   XLSX                                         vs the CSV download of the same order;
//   JSON, NDJSON and the HubSpot CSV             vs the CSV download of the same order.
// Also the server's memory (RSS) growth during one download and during 10 at once, and the stalled
// reader case: one buyer opens 10 downloads of one order and reads none (2 are taken, 8 refused),
// and another buyer's download meanwhile is timed against the plain CSV download. The 10 at once
// are 10 buyers (2 per order, as the per-order limit allows), named in X-Forwarded-For. Ends with
// one line per figure, `ratio NAME=VALUE` (product time / baseline time: lower is better, 1.0 parity).
// Each category holds USA and UK leads half and half, and the order is for BENCH_LOCATION (UK), so
// allocation and every download read one country's leads among both.
// Needs a build: `npm run build` (or NEXT_DIST_DIR). Knobs: BENCH_LEADS (1,000,000), BENCH_RUNS (7),
// BENCH_LOCATION (UK or USA).
// Last, files that heal: 1,000 sold leads turn invalid, 5 in each of 200 paid orders, and one pass
// of lib/orders/heal.ts (in this process) swaps them: `ratio heal_swaps_per_s` is swaps a second.
// Targets: csv <= 1.5, csv10 <= 2.5, xlsx <= 2, json, ndjson and hubspot <= 1.3, growth for 10 at
// once < 50 MB, heal_swaps_per_s >= 500.
import http from "node:http";
import { connect, type Socket } from "node:net";
import { gunzipSync } from "node:zlib";
import { Pool } from "pg";
import { to as copyTo } from "pg-copy-streams";
import { insertLeads } from "../lib/leads/insert";
import { makeLeads } from "../prisma/demo-data";
import { startAppServer, type AppServer } from "../tests/support/app-server";
import { createTestDatabase } from "../tests/support/database";
import { median, processTree, rss } from "./bench-stats";

const TOTAL_LEADS = Number(process.env.BENCH_LEADS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PER_CATEGORY = Math.min(50_000, TOTAL_LEADS);
const LOCATION = process.env.BENCH_LOCATION === "USA" ? "USA" : "UK";
const port = Number(process.env.BENCH_PORT ?? 43_900);
const base = `http://127.0.0.1:${port}`;

// The premium columns as plain text, read from the same order rows in the same order as the
// download: what PostgreSQL alone needs to produce the file's content.
const PLAIN_COLUMNS = [
  "l.first_name",
  "l.last_name",
  "l.job_title",
  "l.company",
  "l.email",
  "l.phone",
  "l.city",
  "l.state",
  "l.country::text",
  "l.profile_url",
  "l.industry",
  "l.company_size",
  "l.seniority",
  "l.department",
  "l.company_website",
  "l.company_revenue",
  `to_char(l.verified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
];

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

async function fill(pool: Pool): Promise<string> {
  let premium = "";
  const started = Date.now();
  for (let index = 0, inserted = 0; inserted < TOTAL_LEADS; index++) {
    const { rows } = await pool.query<{ id: string }>(
      "INSERT INTO categories (title) VALUES ($1) RETURNING id",
      [`Bench ${index + 1}`],
    );
    if (index === 0) premium = rows[0].id;
    const half = PER_CATEGORY / 2;
    inserted += await insertLeads(pool, rows[0].id, [
      ...makeLeads(half, { seed: 1000 + index, country: "USA" }),
      ...makeLeads(half, { seed: 5000 + index, country: "UK" }),
    ]);
    process.stdout.write(`\r  inserted ${inserted.toLocaleString("en-US")} leads`);
  }
  console.log(` in ${seconds(Date.now() - started)}`);
  return premium;
}

type Download = { ms: number; bytes: number; lines: number; status: number };

/**
 * One download over loopback, timed from the request to the last byte received. The client only
 * collects the bytes while the clock runs; decompressing and counting lines happen afterwards, so
 * the figure is the server's, not the client's. `gzip` asks as a browser does.
 */
function timedDownload(url: string, gzip = false, address = "10.0.0.1"): Promise<Download> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers = { "accept-encoding": gzip ? "gzip" : "identity", "x-forwarded-for": address };
    const request = http.get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const ms = performance.now() - started;
        const raw = Buffer.concat(chunks);
        const body = response.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
        resolve({ ms, bytes: body.length, lines: countLines(body), status: response.statusCode ?? 0 });
      });
    });
    request.on("error", reject);
  });
}

function countLines(body: Buffer): number {
  let lines = 0;
  for (let at = body.indexOf(10); at !== -1; at = body.indexOf(10, at + 1)) lines++;
  return lines;
}

/** The baseline: PostgreSQL's CSV of the same rows, streamed through pg-copy-streams to the end. */
async function timedCopy(pool: Pool, orderId: string): Promise<Download> {
  const started = performance.now();
  const client = await pool.connect();
  try {
    const stream = client.query(
      copyTo(
        `COPY (SELECT ${PLAIN_COLUMNS.join(", ")}
           FROM order_leads ol CROSS JOIN LATERAL (SELECT * FROM leads WHERE leads.id = ol.lead_id OFFSET 0) l
           WHERE ol.order_id = '${orderId}' ORDER BY ol.position) TO STDOUT (FORMAT csv, HEADER)`,
      ),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const ms = performance.now() - started;
    const body = Buffer.concat(chunks);
    return { ms, bytes: body.length, lines: countLines(body), status: 200 };
  } finally {
    client.release();
  }
}

const spread = (values: number[]) =>
  `median ${seconds(median(values))} (best ${seconds(Math.min(...values))}, worst ${seconds(Math.max(...values))})`;

/** Runs `task` while sampling `sample` every 10 ms; returns its result and the peak seen. */
async function sampled<T>(
  sample: () => number,
  task: () => Promise<T>,
): Promise<{ result: T; peak: number }> {
  let peak = sample();
  const sampler = setInterval(() => (peak = Math.max(peak, sample())), 10);
  try {
    const result = await task();
    return { result, peak: Math.max(peak, sample()) };
  } finally {
    clearInterval(sampler);
  }
}

function check(label: string, result: Download, lines: number): void {
  if (result.status !== 200 || result.lines !== lines) {
    throw new Error(`${label}: status ${result.status}, ${result.lines} lines instead of ${lines}`);
  }
}

/** A premium order for BENCH_LOCATION, bought and paid through the test payment page; its key. */
async function paidPremiumOrder(categoryId: string): Promise<string> {
  const created = (await (
    await fetch(`${base}/api/payment/create`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ categoryId, packageType: "premium", location: LOCATION }),
    })
  ).json()) as { paymentId: string; invoiceUrl: string };
  const invoiceId = new URL(created.invoiceUrl).pathname.split("/").at(-1)!;
  const paid = await fetch(`${base}/api/payment/test/${invoiceId}`, {
    method: "POST",
    body: new URLSearchParams({ action: "pay" }),
    redirect: "manual",
  });
  const npId = new URL(paid.headers.get("location")!).searchParams.get("NP_id")!;
  const answer = (await (
    await fetch(`${base}/api/payment/status/${created.paymentId}?NP_id=${npId}`)
  ).json()) as { paid: boolean };
  if (!answer.paid) throw new Error("The benchmark order was not paid");
  return created.paymentId;
}

/** A download over a raw socket whose answer is never read past its first piece. */
function stalledDownload(path: string): { socket: Socket; status: Promise<number> } {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: 10.0.3.1\r\n\r\n`);
  const status = new Promise<number>((resolve) =>
    socket.once("data", (chunk: Buffer) => {
      socket.pause();
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString("latin1"))?.[1]));
    }),
  );
  return { socket, status };
}

const HEAL_ORDERS = 200;
const HEAL_ROWS = 100;
const HEAL_INVALID_PER_ORDER = 5;

/**
 * Files that heal: HEAL_ORDERS paid orders of another category, each delivering HEAL_ROWS leads of
 * its own (written as allocation writes them, the benchmark's time being the pass), then
 * HEAL_INVALID_PER_ORDER of each found invalid in one statement, as a re-check writes them. Answers
 * the pass's swaps a second.
 */
async function healSwapsPerSecond(pool: Pool, databaseUrl: string): Promise<number> {
  const { rows } = await pool.query<{ id: string }>("SELECT id FROM categories WHERE title = 'Bench 2'");
  const categoryId = rows[0].id;
  await pool.query(
    `INSERT INTO orders (category_id, lead_title, package_type, lead_count, location, amount, status, paid_at, buyer_email)
     SELECT $1, 'Bench 2', 'starter', $2, 'USA', 10, 'finished', now(), 'heal-' || n || '@example.com'
       FROM generate_series(1, $3) n`,
    [categoryId, HEAL_ROWS, HEAL_ORDERS],
  );
  // Order n gets the n-th run of HEAL_ROWS of the category's USA leads.
  await pool.query(
    `INSERT INTO order_leads (order_id, position, lead_id)
     SELECT o.id, l.n - o.n * $2 + 1, l.id
       FROM (SELECT id, row_number() OVER (ORDER BY id)::int - 1 AS n FROM orders WHERE lead_title = 'Bench 2') o
       JOIN (SELECT id, row_number() OVER (ORDER BY id)::int - 1 AS n FROM leads
              WHERE category_id = $1 AND country = 'USA') l
         ON l.n >= o.n * $2 AND l.n < (o.n + 1) * $2`,
    [categoryId, HEAL_ROWS],
  );
  await pool.query("ANALYZE order_leads, lead_sales");
  await pool.query(
    `UPDATE leads SET email_status = 'invalid' WHERE id IN (
       SELECT ol.lead_id FROM order_leads ol JOIN orders o ON o.id = ol.order_id
        WHERE o.lead_title = 'Bench 2' AND ol.position <= $1)`,
    [HEAL_INVALID_PER_ORDER],
  );
  process.env.DATABASE_URL = databaseUrl;
  const { healOrders } = await import("../lib/orders/heal");
  const { closeDatabase } = await import("../lib/db");
  const started = performance.now();
  const swaps = await healOrders();
  const ms = performance.now() - started;
  await closeDatabase();
  const expected = HEAL_ORDERS * HEAL_INVALID_PER_ORDER;
  if (swaps !== expected) throw new Error(`The heal pass swapped ${swaps} rows, not ${expected}`);
  console.log(`Files that heal: ${swaps} rows in ${HEAL_ORDERS} orders swapped in ${seconds(ms)}`);
  return (swaps / ms) * 1000;
}

/** Measures everything; returns the `ratio NAME=VALUE` lines, printed last. */
async function main(): Promise<string[]> {
  console.log(`Creating the benchmark database (${TOTAL_LEADS.toLocaleString("en-US")} leads)…`);
  const database = await createTestDatabase("leadmarket_bench");
  const pool = new Pool({ connectionString: database.url, max: 10 });
  let server: AppServer | undefined;
  try {
    const categoryId = await fill(pool);
    server = await startAppServer({
      port,
      env: {
        DATABASE_URL: database.url,
        APP_SECRET: "bench-secret-0123456789-0123456789-abcdef",
        PAYMENTS_TEST_MODE: "1",
        ALLOW_TEST_PAYMENTS_IN_PRODUCTION: "1",
        SMTP_URL: "",
        ORDER_CREATE_LIMIT: "0",
        // The benchmark acts as one proxy and names each buyer in X-Forwarded-For.
        TRUST_PROXY_HOPS: "1",
      },
      stdout: "ignore",
    });

    // Premium orders, bought and paid through the test provider exactly as a buyer would.
    const keys: string[] = [];
    for (let index = 0; index < 6; index++) keys.push(await paidPremiumOrder(categoryId));
    const key = keys[0];
    const { rows: orders } = await pool.query<{ id: string }>(
      "SELECT id FROM orders WHERE download_key = $1",
      [key],
    );
    const orderId = orders[0].id;
    // A store's database is not a bulk load seconds old: let PostgreSQL finish digesting it (vacuum,
    // statistics, hint bits, dirty pages) so that the figures are not the load's aftermath.
    await pool.query("VACUUM ANALYZE");
    await pool.query("CHECKPOINT");
    const csvUrl = `${base}/api/leads/download/${key}`;
    const xlsxUrl = `${csvUrl}?format=xlsx`;
    const jsonUrl = `${csvUrl}?format=json`;
    const ndjsonUrl = `${csvUrl}?format=ndjson`;
    const hubspotUrl = `${csvUrl}?format=hubspot`;
    const lines = 20_001;

    // The server's processes are all started by now (it answered the payment calls).
    const pids = processTree(server.process.pid!);
    const serverRss = () => rss(pids);

    // Warm-up: route code loaded, V8's heap sized, the rows in PostgreSQL's cache, as on a store
    // that has been running a while.
    for (let i = 0; i < 3; i++) {
      await timedDownload(csvUrl);
      await timedDownload(xlsxUrl);
      await timedDownload(jsonUrl);
      await timedDownload(ndjsonUrl);
      await timedDownload(hubspotUrl);
      await timedCopy(pool, orderId);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));

    // One download at a time: CSV, COPY, XLSX, JSON, NDJSON and HubSpot in turn. A download's memory growth is the server's
    // peak RSS during it over its RSS just before it; the figure is the largest of the runs.
    const csv: number[] = [];
    const copy: number[] = [];
    const xlsx: number[] = [];
    const gzip: number[] = [];
    const json: number[] = [];
    const ndjson: number[] = [];
    const hubspot: number[] = [];
    let growth = 0;
    let csvBytes = 0;
    let xlsxBytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const before = serverRss();
      const one = await sampled(serverRss, () => timedDownload(csvUrl));
      check("CSV", one.result, lines);
      growth = Math.max(growth, one.peak - before);
      csv.push(one.result.ms);
      csvBytes = one.result.bytes;
      const baseline = await timedCopy(pool, orderId);
      check("COPY", baseline, lines);
      copy.push(baseline.ms);
      const beforeXlsx = serverRss();
      const sheet = await sampled(serverRss, () => timedDownload(xlsxUrl));
      if (sheet.result.status !== 200) throw new Error(`XLSX: status ${sheet.result.status}`);
      growth = Math.max(growth, sheet.peak - beforeXlsx);
      xlsx.push(sheet.result.ms);
      xlsxBytes = sheet.result.bytes;
      const zipped = await timedDownload(csvUrl, true);
      check("CSV gzip", zipped, lines);
      gzip.push(zipped.ms);
      // JSON: "[", a line per lead, "]"; NDJSON a line per lead; the HubSpot CSV as the CSV.
      const asJson = await timedDownload(jsonUrl);
      check("JSON", asJson, lines + 1);
      json.push(asJson.ms);
      const asNdjson = await timedDownload(ndjsonUrl);
      check("NDJSON", asNdjson, lines - 1);
      ndjson.push(asNdjson.ms);
      const asHubspot = await timedDownload(hubspotUrl);
      check("HubSpot", asHubspot, lines);
      hubspot.push(asHubspot.ms);
    }
    console.log("\nPremium order (20,000 leads), time to last byte over loopback:");
    console.log(`  CSV download:         ${spread(csv)}, ${mb(csvBytes)}`);
    console.log(`  CSV download, gzip:   ${spread(gzip)}`);
    console.log(`  COPY ... CSV:         ${spread(copy)}`);
    console.log(`  XLSX download:        ${spread(xlsx)}, ${mb(xlsxBytes)}`);
    console.log(`  JSON download:        ${spread(json)}`);
    console.log(`  NDJSON download:      ${spread(ndjson)}`);
    console.log(`  HubSpot CSV download: ${spread(hubspot)}`);
    console.log(`  server memory growth during one download: at most ${mb(growth)}`);

    // Ten at once, against ten COPYs at once, alternating.
    const ten = <T>(task: () => Promise<T>) => Promise.all(Array.from({ length: 10 }, task));
    const csv10: number[] = [];
    const copy10: number[] = [];
    let growth10 = 0;
    for (let i = 0; i < Math.max(3, Math.ceil(RUNS / 2)); i++) {
      const before = serverRss();
      const started = performance.now();
      let buyer = 0;
      const downloads = await sampled(serverRss, () =>
        ten(() => {
          buyer += 1;
          return timedDownload(`${base}/api/leads/download/${keys[buyer % 5]}`, false, `10.0.1.${buyer}`);
        }),
      );
      csv10.push(performance.now() - started);
      downloads.result.forEach((result) => check("CSV x10", result, lines));
      growth10 = Math.max(growth10, downloads.peak - before);
      const copyStarted = performance.now();
      (await ten(() => timedCopy(pool, orderId))).forEach((result) => check("COPY x10", result, lines));
      copy10.push(performance.now() - copyStarted);
    }
    console.log("\n10 simultaneous premium downloads, until the last byte of the last one:");
    console.log(`  CSV downloads:  ${spread(csv10)}`);
    console.log(`  COPY ... CSV:   ${spread(copy10)}`);
    console.log(`  server memory growth during 10 at once: at most ${mb(growth10)}`);

    // One buyer stalls 10 downloads of one order; another buyer's downloads meanwhile.
    const stalled = Array.from({ length: 10 }, () => stalledDownload(`/api/leads/download/${keys[0]}`));
    const statuses = await Promise.all(stalled.map((download) => download.status));
    const beside: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const result = await timedDownload(`${base}/api/leads/download/${keys[5]}`, false, "10.0.2.1");
      check("CSV beside 10 stalled", result, lines);
      beside.push(result.ms);
    }
    for (const download of stalled) download.socket.destroy();
    const count = (status: number) => statuses.filter((value) => value === status).length;
    console.log("\nOne buyer opens 10 downloads of one order and reads none:");
    console.log(
      `  their answers: ${count(200)} x 200 (held), ${count(429)} x 429, ${10 - count(200) - count(429)} other`,
    );
    console.log(`  another buyer's CSV download meanwhile: ${spread(beside)}`);

    const healRate = await healSwapsPerSecond(pool, database.url);

    const ratio = (product: number[], baseline: number[]) => (median(product) / median(baseline)).toFixed(2);
    console.log(
      `\nTargets: growth for 10 at once < 50 MB ${growth10 < 50 * 1024 * 1024 ? "met" : "MISSED"}` +
        ` (one download: ${mb(growth)})\n`,
    );
    return [
      `ratio csv_vs_copy=${ratio(csv, copy)}`,
      `ratio csv_gzip_vs_copy=${ratio(gzip, copy)}`,
      `ratio csv10_vs_copy10=${ratio(csv10, copy10)}`,
      `ratio xlsx_vs_csv=${ratio(xlsx, csv)}`,
      `ratio json_vs_csv=${ratio(json, csv)}`,
      `ratio ndjson_vs_csv=${ratio(ndjson, csv)}`,
      `ratio hubspot_vs_csv=${ratio(hubspot, csv)}`,
      `ratio csv_beside_10_stalled_vs_csv=${ratio(beside, csv)}`,
      `ratio heal_swaps_per_s=${healRate.toFixed(0)}`,
    ];
  } finally {
    await server?.stop();
    await pool.end();
    // pool.end() resolves before its connections have closed; the drop may cut one that is still
    // closing, which must not end the run before its figures are printed.
    pool.on("error", () => undefined);
    await database.drop();
    console.log("Benchmark database dropped.");
  }
}

for (const line of await main()) console.log(line);
