// `npm run bench:admin`: admin back-office figures against the production build (run `npm run build`
// first; NEXT_DIST_DIR picks another build dir). On a throw-away local database, dropped afterwards:
//   1. import a 100,000-row CSV into a category through POST /api/admin/categories/{id}/leads,
//      sampling the server's resident memory meanwhile (target: under 20 s, memory flat);
//   2. import a 1,000,000-row CSV the same way;
//   3. with those 1,100,000 leads and 10,000 sales in the database, time GET stats, sales,
//      requests and categories (target: under 100 ms each).
import { createWriteStream, openAsBlob, readFileSync, rmSync, statSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { SignJWT } from "jose";
import { Pool } from "pg";
import { startAppServer, type AppServer } from "../tests/support/app-server";
import { createTestDatabase } from "../tests/support/database";

const APP_SECRET = "bench-secret-0123456789-0123456789-abcdef";
const PORT = 46000 + Math.floor(Math.random() * 2000);
const BASE = `http://127.0.0.1:${PORT}`;

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function writeCsv(file: string, rows: number, prefix: string): Promise<void> {
  const out = createWriteStream(file);
  out.write("First Name,Last Name,Job Title,Company,Email,Phone,City,State,Country,LinkedIn URL\n");
  let chunk = "";
  for (let i = 0; i < rows; i++) {
    const country = i % 3 === 0 ? "UK" : "USA";
    chunk += `First${i},Last${i},Head of Sales,Company ${i % 5000} Inc,${prefix}.${i}@company${i % 5000}.com,+1 555 ${String(i).padStart(7, "0")},Austin,TX,${country},https://www.linkedin.com/in/p${i}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
}

async function importFile(token: string, categoryId: string, file: string, pid: number) {
  const form = new FormData();
  // A file-backed Blob: fetch streams it from disk.
  form.append("file", await openAsBlob(file, { type: "text/csv" }), path.basename(file));
  const baseline = rssOf(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 100);
  const started = performance.now();
  const response = await fetch(`${BASE}/api/admin/categories/${categoryId}/leads`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const report = (await response.json()) as { imported: number; duplicates: number; invalidCount: number };
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (!response.ok) throw new Error(`import failed: ${response.status} ${JSON.stringify(report)}`);
  return { seconds, report, baseline, peak };
}

async function timeGet(token: string, url: string, runs = 20) {
  const times: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const started = performance.now();
    const response = await fetch(`${BASE}${url}`, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    if (i >= 2) times.push(performance.now() - started); // two warm-up calls
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95) - 1] };
}

const database = await createTestDatabase("leadmarket_bench");
const pool = new Pool({ connectionString: database.url });
const files = [
  path.join(tmpdir(), `bench-100k-${process.pid}.csv`),
  path.join(tmpdir(), `bench-1m-${process.pid}.csv`),
];
let server: AppServer | undefined;
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
  const { rows: categories } = await pool.query(
    "INSERT INTO categories (title) VALUES ('Bench 100k'), ('Bench 1M') RETURNING id",
  );

  console.log("Writing CSV files...");
  await writeCsv(files[0], 100_000, "a");
  await writeCsv(files[1], 1_000_000, "b");
  console.log(
    `  100k: ${(statSync(files[0]).size / 1e6).toFixed(1)} MB, 1M: ${(statSync(files[1]).size / 1e6).toFixed(1)} MB`,
  );

  server = await startAppServer({
    port: PORT,
    env: { DATABASE_URL: database.url, APP_SECRET, PORT: String(PORT) },
    stdout: "ignore",
  });
  const pid = server.process.pid!;

  for (const [index, file] of files.entries()) {
    const label = index === 0 ? "100,000" : "1,000,000";
    const result = await importFile(token, categories[index].id, file, pid);
    console.log(
      `Import ${label} rows: ${result.seconds.toFixed(1)} s (${Math.round(result.report.imported / result.seconds).toLocaleString("en-US")} rows/s), ` +
        `imported ${result.report.imported}, duplicates ${result.report.duplicates}, invalid ${result.report.invalidCount}; ` +
        `server RSS ${result.baseline.toFixed(0)} MB before, peak ${result.peak.toFixed(0)} MB`,
    );
  }

  // 10,000 sales over the last 60 days, 70% paid.
  await pool.query(
    `INSERT INTO orders (category_id, lead_title, package_type, lead_count, amount, status, provider_payment_id,
       paid_at, created_at)
     SELECT $1, 'Bench 1M', 'starter', 1000, 10, CASE WHEN i % 10 < 7 THEN 'finished' ELSE 'waiting' END,
       'np-bench-' || i,
       CASE WHEN i % 10 < 7 THEN now() - (i % 60) * interval '1 day' END,
       now() - (i % 60) * interval '1 day'
     FROM generate_series(1, 10000) AS i`,
    [categories[1].id],
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
  ]) {
    const { median, p95 } = await timeGet(token, url);
    console.log(`  GET ${url}: median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
  }
  const started = performance.now();
  const exported = await fetch(`${BASE}/api/admin/sales/export`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const bytes = (await exported.arrayBuffer()).byteLength;
  console.log(
    `  GET /api/admin/sales/export: ${(performance.now() - started).toFixed(0)} ms, ${bytes} bytes`,
  );
} finally {
  await server?.stop();
  await pool.end();
  await database.drop();
  for (const file of files) rmSync(file, { force: true });
}
