// `npm run bench:admin`: admin back-office figures against the production build (run `npm run build`
// first; NEXT_DIST_DIR picks another build dir), on a throw-away local database dropped afterwards:
//   1. CSV imports of 100,000 and 1,000,000 rows (on 5,000 domains) through
//      POST /api/admin/categories/{id}/leads, with the import's checks against a DNS server on
//      loopback (dns2, started here, answering MX for every domain with a TTL of 0, so that each
//      import looks them all up), each against its baseline in the same run, alternating:
//      PostgreSQL's COPY ... FROM of the same file into a table with the same columns, indexes and
//      keys as leads (an empty leads table for each import, a fresh copy of it for each COPY); the
//      server's memory meanwhile. Then the small import on a second server whose DNS_SERVERS is a
//      loopback port where nothing answers, each run next to one on the first server:
//      `import_dead_resolver_extra_s` is the median of how much longer it takes (target: at most
//      10 s). That wait is the same whatever the file's size, and measured in pairs on the small
//      file, where runs differ by less than the wait, it is not lost in the big file's noise;
//   2. with 1,000,000 leads, 10,000 sales and 2,000 requests, the latency of stats, sales, requests
//      and categories (target: under 100 ms each);
//   3. re-checks of 100,000 leads against a loopback DNS server and the ZeroBounce stand-in
//      (scripts/bench-recheck.ts, in a process of its own), `ratio recheck_rows_per_s`;
//   4. a 20,000,000-line TPS register loaded against PostgreSQL's COPY of the same numbers, and
//      1,000,000 UK leads screened against it (scripts/bench-registers.ts, in a process of its
//      own): `ratio register_vs_copy` (target: at most 1.5) and `ratio screen_1m_s` (under 60).
// Ends with `ratio NAME=VALUE` lines (import time / COPY time: lower is better, 1.0 parity; target
// import_vs_copy <= 1.5). Knobs: BENCH_IMPORT_ROWS (1000000; the small import is a tenth of it),
// BENCH_RUNS (3 of each).
import { execFileSync } from "node:child_process";
import { createReadStream, createWriteStream, openAsBlob, readFileSync, rmSync, statSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { SignJWT } from "jose";
import { Pool } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { startAppServer, type AppServer } from "../tests/support/app-server";
import { createTestDatabase } from "../tests/support/database";
import { startDnsServer } from "../tests/support/dns-server";
import { median } from "./bench-stats";

const APP_SECRET = "bench-secret-0123456789-0123456789-abcdef";
const DOMAINS = 5000;
const BIG = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const HEADER = "First Name,Last Name,Job Title,Company,Email,Phone,City,State,Country,LinkedIn URL";
// The file's columns, in leads.
const COPY_COLUMNS =
  "first_name, last_name, job_title, company, email, phone, city, state, country, profile_url";

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function writeCsv(file: string, rows: number, prefix: string): Promise<void> {
  const out = createWriteStream(file);
  out.write(`${HEADER}\n`);
  let chunk = "";
  for (let i = 0; i < rows; i++) {
    const country = i % 3 === 0 ? "UK" : "USA";
    chunk += `First${i},Last${i},Head of Sales,Company ${i % DOMAINS} Inc,${prefix}.${i}@company${i % DOMAINS}.com,+1 555 ${String(i).padStart(7, "0")},Austin,TX,${country},https://www.linkedin.com/in/p${i}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
}

async function importFile(token: string, categoryId: string, file: string, server: AppServer) {
  const pid = server.process.pid!;
  const form = new FormData();
  // A file-backed Blob: fetch streams it from disk.
  form.append("file", await openAsBlob(file, { type: "text/csv" }), path.basename(file));
  const baseline = rssOf(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 100);
  const started = performance.now();
  const response = await fetch(`${server.url}/api/admin/categories/${categoryId}/leads`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const report = (await response.json()) as { imported: number; duplicates: number; invalidCount: number };
  const ms = performance.now() - started;
  clearInterval(sampler);
  if (!response.ok) throw new Error(`import failed: ${response.status} ${JSON.stringify(report)}`);
  return { ms, report, growth: peak - baseline };
}

/** The baseline: the same file, COPY'd from disk into a fresh table shaped like leads. */
async function copyFile(pool: Pool, categoryId: string, file: string): Promise<number> {
  await pool.query("DROP TABLE IF EXISTS leads_copy");
  await pool.query(`CREATE TABLE leads_copy (LIKE leads INCLUDING ALL,
    FOREIGN KEY (category_id) REFERENCES categories (id) ON DELETE CASCADE)`);
  await pool.query(`ALTER TABLE leads_copy ALTER category_id SET DEFAULT '${categoryId}',
    ALTER verified_at SET DEFAULT now()`);
  const client = await pool.connect();
  try {
    const started = performance.now();
    await pipeline(
      createReadStream(file),
      client.query(copyFrom(`COPY leads_copy (${COPY_COLUMNS}) FROM STDIN (FORMAT csv, HEADER)`)),
    );
    return performance.now() - started;
  } finally {
    client.release();
  }
}

async function timeGet(base: string, token: string, url: string, runs = 20) {
  const times: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const started = performance.now();
    const response = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    if (i >= 2) times.push(performance.now() - started); // two warm-up calls
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95) - 1] };
}

const secs = (values: number[]) =>
  `median ${(median(values) / 1000).toFixed(2)} s (${values.map((ms) => (ms / 1000).toFixed(2)).join(", ")})`;

const database = await createTestDatabase("leadmarket_bench");
const pool = new Pool({ connectionString: database.url });
const SIZES = [Math.round(BIG / 10), BIG];
const files = SIZES.map((rows) => path.join(tmpdir(), `bench-${rows}-${process.pid}.csv`));
const ratios: string[] = [];
const zone = Object.fromEntries(
  Array.from({ length: DOMAINS }, (_, i) => [
    `company${i}.com`,
    { mx: [{ exchange: "mx.company.test", priority: 10 }], ttl: 0 },
  ]),
);
const dns = await startDnsServer({ zone });
const deadDns = await startDnsServer({ neverAnswer: true });
let server: AppServer | undefined;
let deadServer: AppServer | undefined;
try {
  const { rows: admins } = await pool.query(
    `INSERT INTO admins (email, password_hash) VALUES ('bench@example.com', 'x')
     RETURNING id, password_changed_at`,
  );
  const token = await new SignJWT({ pwv: new Date(admins[0].password_changed_at).getTime() })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(admins[0].id)
    .setIssuer("leadmarket")
    .setAudience("leadmarket-admin")
    .setIssuedAt()
    .setExpirationTime("2h")
    .sign(new TextEncoder().encode(APP_SECRET));
  const { rows: categories } = await pool.query<{ id: string }>(
    "INSERT INTO categories (title) VALUES ('Bench import') RETURNING id",
  );
  const categoryId = categories[0].id;

  console.log("Writing CSV files...");
  for (const [index, rows] of SIZES.entries()) {
    await writeCsv(files[index], rows, `p${index}`);
    console.log(
      `  ${rows.toLocaleString("en-US")} rows: ${(statSync(files[index]).size / 1e6).toFixed(1)} MB`,
    );
  }

  const appServer = (dnsServers: string) =>
    startAppServer({
      env: { DATABASE_URL: database.url, APP_SECRET, DNS_SERVERS: dnsServers },
      stdout: "ignore",
    });
  server = await appServer(dns.address);
  deadServer = await appServer(deadDns.address);

  // Each import starts from an empty leads table and each COPY from a new empty table, so both
  // build their indexes from nothing; the order alternates from run to run.
  const productImport = async (file: string, rows: number, on = server!) => {
    await pool.query("TRUNCATE leads CASCADE");
    await pool.query("UPDATE categories SET count = 0");
    const result = await importFile(token, categoryId, file, on);
    if (result.report.imported !== rows) throw new Error(`imported ${JSON.stringify(result.report)}`);
    return result;
  };
  // Warm-up: route code loaded and compiled, as on a server that has been running a while.
  await productImport(files[0], SIZES[0]);
  await productImport(files[0], SIZES[0], deadServer);
  await copyFile(pool, categoryId, files[0]);
  const extras: number[] = [];
  for (let run = 0; run < Math.max(RUNS, 5); run++) {
    const order = run % 2 === 0 ? [server, deadServer] : [deadServer, server];
    const [first, second] = [
      (await productImport(files[0], SIZES[0], order[0])).ms,
      (await productImport(files[0], SIZES[0], order[1])).ms,
    ];
    extras.push(run % 2 === 0 ? second - first : first - second);
  }
  console.log(
    `Import ${SIZES[0].toLocaleString("en-US")} rows with no resolver answering, longer by: ${secs(extras)}`,
  );
  ratios.push(`ratio import_dead_resolver_extra_s=${(median(extras) / 1000).toFixed(1)}`);
  const queries = dns.queries.length;
  for (const [index, file] of files.entries()) {
    const rows = SIZES[index];
    const imports: number[] = [];
    const copies: number[] = [];
    const big = index === files.length - 1;
    let growth = 0;
    for (let run = 0; run < RUNS; run++) {
      if (run % 2 === 1) copies.push(await copyFile(pool, categoryId, file));
      const result = await productImport(file, rows);
      imports.push(result.ms);
      growth = Math.max(growth, result.growth);
      if (run % 2 === 0) copies.push(await copyFile(pool, categoryId, file));
    }
    const label = rows.toLocaleString("en-US");
    console.log(
      `Import ${label} rows:  ${secs(imports)}, ${Math.round(rows / (median(imports) / 1000)).toLocaleString("en-US")} rows/s; ` +
        `server memory growth at most ${growth.toFixed(0)} MB`,
    );
    console.log(`COPY ${label} rows:    ${secs(copies)}`);
    ratios.push(
      `ratio ${big ? "import_vs_copy" : "import_small_vs_copy"}=${(median(imports) / median(copies)).toFixed(2)}`,
    );
  }
  console.log(`DNS queries answered during the measured imports: ${dns.queries.length - queries}`);
  await pool.query("DROP TABLE leads_copy");

  // 10,000 sales over the last 60 days, 70% paid.
  await pool.query(
    `INSERT INTO orders (category_id, lead_title, package_type, lead_count, amount, status, provider_payment_id,
       paid_at, created_at)
     SELECT $1, 'Bench 1M', 'starter', 1000, 10, CASE WHEN i % 10 < 7 THEN 'finished' ELSE 'waiting' END,
       'np-bench-' || i,
       CASE WHEN i % 10 < 7 THEN now() - (i % 60) * interval '1 day' END,
       now() - (i % 60) * interval '1 day'
     FROM generate_series(1, 10000) AS i`,
    [categoryId],
  );
  await pool.query(
    `INSERT INTO custom_requests (name, email, industry, role, platform, message)
     SELECT 'Requester ' || i, 'r' || i || '@example.com', 'saas', 'ceo', 'LinkedIn', 'Need leads'
     FROM generate_series(1, 2000) AS i`,
  );
  await pool.query("ANALYZE");
  const { rows: leadCount } = await pool.query("SELECT count(*)::int AS n FROM leads");
  console.log(`With ${leadCount[0].n.toLocaleString("en-US")} leads, 10,000 sales and 2,000 requests:`);
  for (const url of [
    "/api/admin/stats",
    "/api/admin/sales",
    "/api/admin/sales?page=50&pageSize=100",
    "/api/admin/requests",
    "/api/admin/categories",
    "/api/admin/categories/rechecks",
    "/api/admin/categories/quarantine",
  ]) {
    const { median, p95 } = await timeGet(server.url, token, url);
    console.log(`  GET ${url}: median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
  }
  const started = performance.now();
  const exported = await fetch(`${server.url}/api/admin/sales/export`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const bytes = (await exported.arrayBuffer()).byteLength;
  console.log(
    `  GET /api/admin/sales/export: ${(performance.now() - started).toFixed(0)} ms, ${bytes} bytes`,
  );
} finally {
  await server?.stop();
  await deadServer?.stop();
  await dns.close();
  await deadDns.close();
  await pool.end();
  await database.drop();
  for (const file of files) rmSync(file, { force: true });
}
for (const script of ["bench-recheck.ts", "bench-registers.ts"]) {
  const output = execFileSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", path.join(import.meta.dirname, script)],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  for (const line of output.trim().split("\n")) {
    if (line.startsWith("ratio ")) ratios.push(line);
    else console.log(line);
  }
}
for (const line of ratios) console.log(line);
