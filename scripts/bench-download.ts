// npm run bench:download - downloads of a premium order (20,000 leads) as CSV and XLSX from the
// production build, in a throw-away database holding over 1,000,000 leads: time to last byte,
// server memory (RSS) growth, and 10 simultaneous downloads. Needs a build: `npm run build`
// (or NEXT_DIST_DIR pointing at another build). Targets: CSV < 0.5 s, XLSX < 3 s, growth < 100 MB.
import { readdirSync, readFileSync } from "node:fs";
import { Pool } from "pg";
import { insertLeads } from "../lib/leads/insert";
import { makeLeads } from "../prisma/demo-data";
import { startAppServer, type AppServer } from "../tests/support/app-server";
import { createTestDatabase } from "../tests/support/database";

const TOTAL_LEADS = 1_000_000;
const PER_CATEGORY = 50_000;
const port = Number(process.env.BENCH_PORT ?? 43_900);
const base = `http://127.0.0.1:${port}`;

/** RSS of a process and all its descendants, in bytes (Next may run its server in a child). */
function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      total += match ? Number(match[1]) * 1024 : 0;
    } catch {
      // ended
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

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
    inserted += await insertLeads(pool, rows[0].id, makeLeads(PER_CATEGORY, { seed: 1000 + index }));
    process.stdout.write(`\r  inserted ${inserted.toLocaleString("en-US")} leads`);
  }
  await pool.query("ANALYZE leads");
  console.log(` in ${seconds(Date.now() - started)}`);
  return premium;
}

async function timedDownload(
  url: string,
): Promise<{ ms: number; bytes: number; lines: number; status: number }> {
  const started = performance.now();
  const response = await fetch(url);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  return { ms: performance.now() - started, bytes, lines, status: response.status };
}

async function main(): Promise<void> {
  console.log("Creating the benchmark database…");
  const database = await createTestDatabase("leadmarket_bench");
  const pool = new Pool({ connectionString: database.url });
  let server: AppServer | undefined;
  try {
    const categoryId = await fill(pool);
    const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM leads");
    console.log(`  database holds ${Number(rows[0].n).toLocaleString("en-US")} leads`);

    server = await startAppServer({
      port,
      env: {
        DATABASE_URL: database.url,
        APP_SECRET: "bench-secret-0123456789-0123456789-abcdef",
        PAYMENTS_TEST_MODE: "1",
        SMTP_URL: "",
      },
      stdout: "ignore",
    });
    const pid = server.process.pid!;

    // A premium order, bought and paid through the test provider exactly as a buyer would.
    const created = (await (
      await fetch(`${base}/api/payment/create`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ categoryId, packageType: "premium" }),
      })
    ).json()) as { paymentId: string };
    const paid = await fetch(`${base}/api/payment/test/${created.paymentId}`, {
      method: "POST",
      body: new URLSearchParams({ action: "pay" }),
      redirect: "manual",
    });
    const npId = new URL(paid.headers.get("location")!).searchParams.get("NP_id")!;
    const answer = (await (await fetch(`${base}/api/payment/status/${npId}`)).json()) as { paid: boolean };
    if (!answer.paid) throw new Error("The benchmark order was not paid");
    const csvUrl = `${base}/api/leads/download/${npId}`;
    const xlsxUrl = `${csvUrl}?format=xlsx`;

    // Warm-up (first requests load route code), then the baseline.
    await timedDownload(csvUrl);
    await timedDownload(xlsxUrl);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const baseline = treeRss(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, treeRss(pid))), 20);

    const measure = async (label: string, url: string, runs: number) => {
      const times: number[] = [];
      let last = { bytes: 0, lines: 0, status: 0 };
      for (let i = 0; i < runs; i++) {
        const result = await timedDownload(url);
        times.push(result.ms);
        last = result;
      }
      times.sort((a, b) => a - b);
      console.log(
        `${label}: median ${seconds(times[Math.floor(runs / 2)])}, best ${seconds(times[0])}, worst ${seconds(times.at(-1)!)} ` +
          `(status ${last.status}, ${mb(last.bytes)}${label === "CSV " ? `, ${last.lines - 1} data rows` : ""})`,
      );
      return times[Math.floor(runs / 2)];
    };
    console.log("\nPremium order (20,000 leads), time to last byte over loopback:");
    const csvMedian = await measure("CSV ", csvUrl, 7);
    const csvPeak = peak;
    peak = treeRss(pid);
    const xlsxMedian = await measure("XLSX", xlsxUrl, 3);
    const xlsxPeak = peak;
    const singlePeak = Math.max(csvPeak, xlsxPeak);

    const concurrent = async (url: string, expectLines?: number) => {
      const started = performance.now();
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => timedDownload(url)));
      const failed = results.filter(
        (r) =>
          r.status === "rejected" ||
          r.value.status !== 200 ||
          (expectLines !== undefined && r.value.lines !== expectLines),
      ).length;
      return { ms: performance.now() - started, failed };
    };
    const csv10 = await concurrent(csvUrl, 20_001);
    const xlsx10 = await concurrent(xlsxUrl);
    clearInterval(sampler);
    peak = Math.max(peak, treeRss(pid));

    console.log(`\n10 simultaneous CSV downloads:  ${seconds(csv10.ms)} in all, ${csv10.failed} failed`);
    console.log(`10 simultaneous XLSX downloads: ${seconds(xlsx10.ms)} in all, ${xlsx10.failed} failed`);
    console.log(
      `\nServer RSS: baseline ${mb(baseline)}; single CSV downloads peak ${mb(csvPeak)} (growth ${mb(csvPeak - baseline)}), ` +
        `single XLSX downloads peak ${mb(xlsxPeak)} (growth ${mb(xlsxPeak - baseline)}),`,
    );
    console.log(`            peak during the concurrent runs ${mb(peak)} (growth ${mb(peak - baseline)})`);
    const verdict = (ok: boolean) => (ok ? "met" : "MISSED");
    console.log(
      `\nTargets: CSV < 0.5 s ${verdict(csvMedian < 500)}, XLSX < 3 s ${verdict(xlsxMedian < 3000)}, ` +
        `growth < 100 MB ${verdict(singlePeak - baseline < 100 * 1024 * 1024)}, ` +
        `10 concurrent without errors ${verdict(csv10.failed + xlsx10.failed === 0)}`,
    );
  } finally {
    await server?.stop();
    await pool.end();
    await database.drop();
    console.log("Benchmark database dropped.");
  }
}

await main();
