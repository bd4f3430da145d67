// npm run bench:download - downloads of a premium order (20,000 leads) as CSV and XLSX from the
// production build, in a throw-away database holding over 1,000,000 leads: time to last byte,
// server memory (RSS) growth, and 10 simultaneous downloads. Needs a build: `npm run build`
// (or NEXT_DIST_DIR pointing at another build). Targets: CSV < 0.5 s, XLSX < 3 s, growth < 100 MB.
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { Pool } from "pg";
import { insertLeads } from "../lib/leads/insert";
import { makeLeads } from "../prisma/demo-data";
import { startAppServer, type AppServer } from "../tests/support/app-server";
import { createTestDatabase } from "../tests/support/database";

const TOTAL_LEADS = 1_000_000;
const PER_CATEGORY = 50_000;
const port = Number(process.env.BENCH_PORT ?? 43_900);
const base = `http://127.0.0.1:${port}`;

/** A process and all its descendants (Next may run its server in a child). */
function processTree(root: number): number[] {
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
  const tree: number[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    tree.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Summed RSS of the given processes, in bytes. Reads only their status files, so sampling it
 * every few milliseconds takes next to no CPU from the server being measured. */
function rss(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      total += match ? Number(match[1]) * 1024 : 0;
    } catch {
      // ended
    }
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
  console.log(` in ${seconds(Date.now() - started)}`);
  return premium;
}

/**
 * One download as a browser makes it (accepting gzip), timed from the request to the last byte
 * received. The client only collects the bytes while the clock runs; decompressing and counting
 * rows happen afterwards, so the figure is the server's, not the client's.
 */
function timedDownload(
  url: string,
): Promise<{ ms: number; bytes: number; lines: number; status: number; coding: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(url, { headers: { "accept-encoding": "gzip" } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const ms = performance.now() - started;
        const coding = response.headers["content-encoding"] ?? "identity";
        const raw = Buffer.concat(chunks);
        const body = coding === "gzip" ? gunzipSync(raw) : raw;
        let lines = 0;
        for (let at = body.indexOf(10); at !== -1; at = body.indexOf(10, at + 1)) lines++;
        resolve({ ms, bytes: body.length, lines, status: response.statusCode ?? 0, coding });
      });
    });
    request.on("error", reject);
  });
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
        ALLOW_TEST_PAYMENTS_IN_PRODUCTION: "1",
        SMTP_URL: "",
      },
      stdout: "ignore",
    });

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
    // A store's database is not a bulk load seconds old: let PostgreSQL finish digesting it (vacuum,
    // statistics, hint bits, dirty pages) so that the figures are not the load's aftermath.
    await pool.query("VACUUM ANALYZE");
    await pool.query("CHECKPOINT");
    const csvUrl = `${base}/api/leads/download/${npId}`;
    const xlsxUrl = `${csvUrl}?format=xlsx`;

    // The server's processes are all started by now (it answered the payment calls).
    const pids = processTree(server.process.pid!);
    const serverRss = () => rss(pids);
    const startRss = serverRss();

    // Each format is measured after its own warm-up: the first requests load route code and V8
    // sizes its heap over the first few downloads, as on a store that has been running a while.
    // A download's memory growth is the server's peak RSS during it over its RSS just before it;
    // the figure is the largest of the runs.
    const measure = async (label: string, url: string, runs: number) => {
      for (let i = 0; i < 3; i++) await timedDownload(url);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const times: number[] = [];
      let growth = 0;
      let last = { bytes: 0, lines: 0, status: 0, coding: "" };
      for (let i = 0; i < runs; i++) {
        const before = serverRss();
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, serverRss())), 10);
        const result = await timedDownload(url);
        clearInterval(sampler);
        growth = Math.max(growth, Math.max(peak, serverRss()) - before);
        times.push(result.ms);
        last = result;
      }
      times.sort((a, b) => a - b);
      const median = times[Math.floor(runs / 2)];
      console.log(
        `${label}: median ${seconds(median)}, best ${seconds(times[0])}, worst ${seconds(times.at(-1)!)} ` +
          `(status ${last.status}, ${last.coding}, ${mb(last.bytes)}${label === "CSV " ? `, ${last.lines - 1} data rows` : ""}); ` +
          `server memory growth at most ${mb(growth)}`,
      );
      return { median, growth };
    };
    console.log("\nPremium order (20,000 leads), time to last byte over loopback:");
    const csv = await measure("CSV ", csvUrl, 7);
    const xlsx = await measure("XLSX", xlsxUrl, 3);

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
    let peak = serverRss();
    const sampler = setInterval(() => (peak = Math.max(peak, serverRss())), 20);
    const csv10 = await concurrent(csvUrl, 20_001);
    const xlsx10 = await concurrent(xlsxUrl);
    clearInterval(sampler);

    console.log(`\n10 simultaneous CSV downloads:  ${seconds(csv10.ms)} in all, ${csv10.failed} failed`);
    console.log(`10 simultaneous XLSX downloads: ${seconds(xlsx10.ms)} in all, ${xlsx10.failed} failed`);
    console.log(`Server RSS: ${mb(startRss)} at start, peak ${mb(peak)} during the concurrent runs`);
    const verdict = (ok: boolean) => (ok ? "met" : "MISSED");
    const limit = 100 * 1024 * 1024;
    console.log(
      `\nTargets: CSV < 0.5 s ${verdict(csv.median < 500)}, XLSX < 3 s ${verdict(xlsx.median < 3000)}, ` +
        `growth < 100 MB ${verdict(csv.growth < limit && xlsx.growth < limit)}, ` +
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
