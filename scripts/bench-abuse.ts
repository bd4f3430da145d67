// npm run bench:abuse - what each public endpoint costs when a visitor sends it the worst input we
// know (scripts/abuse-endpoints.ts, one entry per public route and method under app/api). Starts
// the production build on a throw-away database with the demo data, in test-payment mode as the
// demo runs, with the ZeroBounce stand-in on loopback; the bench stands in for one proxy
// (TRUST_PROXY_HOPS=1), so each worker's X-Forwarded-For is another client. Setup buys a premium
// order, opens an unpaid one and uploads three 100,000-entry exclusion lists. Then:
//   - /api/health is timed every 50 ms throughout (a fresh connection each, 5 s timeout);
//   - quiet: 10 s of probes before the abuse and 10 s after;
//   - each input in turn: its requests from its workers at once, round after round for at least
//     5 s (each request times out after 20 s, a burst stops after 30 s), sent by a child process at
//     the lowest CPU priority (scripts/abuse-sender.ts: an attacker's client runs on its own
//     machines, and building and sending 10 MB bodies here must not count as the server's slowness
//     in the probes' times),
//     then up to 20 s for the server's CPU and the database to go quiet (no query running, and the
//     server's CPU within 10% of a core of what the probes alone cost it in the quiet period). The
//     server's CPU time (/proc/<pid>/stat) from the burst's start to quiet, less what the probes
//     alone cost it over that time, divided by the requests sent, is the input's CPU per request. A server still busy after that is restarted
//     (and the database's queries cancelled); its figure, like that of an input whose requests
//     timed out, is a floor.
// Ends with `ratio health_p95_under_abuse_vs_quiet=N` (the worst input's health p95 over the quiet
// p95, bounded routes' plain bursts aside; target at most 3) and `ratio cpu_ms_per_request_<endpoint>=N` (each endpoint's worst input).
// The database's own CPU is not in the server's figure: slow queries show in the request times
// and the health probe. Traffic goes only to 127.0.0.1. Needs a build: `npm run build` (or
// NEXT_DIST_DIR pointing at another build). BENCH_ONLY=text runs only the inputs whose name holds it.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import { Pool } from "pg";
import { seedDemoData } from "../prisma/demo-data";
import { startAppServer, type AppServer } from "../tests/support/app-server";
import { createTestDatabase } from "../tests/support/database";
import { startZeroBounceStandin } from "../tests/support/zerobounce-standin";
import {
  ABUSE_ENDPOINTS,
  multipart,
  type AbuseContext,
  type AbuseEntry,
  type AbuseInput,
} from "./abuse-endpoints";
import type { SenderAnswer, SenderCommand, Sent } from "./abuse-sender";
import { freePort } from "./free-port";

const REQUEST_TIMEOUT_MS = 20_000;
const BURST_MS = 30_000;
/** Each input's requests are sent round after round for at least this long: enough health probes
 * (about 90) for their p95 to be a p95, not the burst's one worst probe. */
const SUSTAIN_MS = 5_000;
const DRAIN_MS = 20_000;
const QUIET_MS = 10_000;
const PROBE_EVERY_MS = 50;
const PROBE_TIMEOUT_MS = 5_000;
/** Below this share of one core over half a second, beyond what the health probes alone cost, the
 * server counts as quiet. */
const IDLE_SHARE = 0.1;
const LIST_ENTRIES = 100_000;
/** Only the inputs whose name holds this text, for a quick look at a few. */
const only = process.env.BENCH_ONLY;
const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"]).toString()) || 100;

if (only && !ABUSE_ENDPOINTS.some((entry) => entry.inputs.some((input) => input.name.includes(only)))) {
  console.error(`BENCH_ONLY=${only} names no input of scripts/abuse-endpoints.ts`);
  process.exit(1);
}
const distDir = process.env.NEXT_DIST_DIR ?? ".next";
if (!existsSync(`${distDir}/BUILD_ID`)) {
  console.error(`No production build in ${distDir}: run \`npm run build\` first (or set NEXT_DIST_DIR).`);
  process.exit(1);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The process's user + system CPU time, in ms. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

function percentile(values: number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

// The attacker's side, in its own process at the lowest CPU priority (scripts/abuse-sender.ts).
const sender = spawn("nice", ["-n", "19", process.execPath, ...process.execArgv, "scripts/abuse-sender.ts"], {
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
function tellSender<K extends SenderAnswer["kind"]>(
  command: SenderCommand,
  kind: K,
): Promise<Extract<SenderAnswer, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const onExit = () => reject(new Error("The abuse sender exited"));
    sender.once("exit", onExit);
    sender.once("message", (message: SenderAnswer) => {
      sender.off("exit", onExit);
      if (message.kind === kind) resolve(message as Extract<SenderAnswer, { kind: K }>);
      else reject(new Error(`The abuse sender answered ${message.kind}, not ${kind}`));
    });
    sender.send(command);
  });
}

const database = await createTestDatabase("leadmarket_bench_abuse");
const pool = new Pool({ connectionString: database.url });
pool.on("error", () => undefined);
const zerobounce = await startZeroBounceStandin();
const port = Number(process.env.BENCH_PORT) || (await freePort());
const base = `http://127.0.0.1:${port}`;

function startServer(): Promise<AppServer> {
  return startAppServer({
    port,
    stdout: "ignore",
    env: {
      DATABASE_URL: database.url,
      APP_SECRET: "bench-abuse-secret-0123456789-0123456789",
      SMTP_URL: "",
      TRUST_PROXY_HOPS: "1",
      PAYMENTS_TEST_MODE: "1",
      ALLOW_TEST_PAYMENTS_IN_PRODUCTION: "1",
      NOWPAYMENTS_IPN_SECRET: "bench-abuse-ipn",
      EMAIL_VERIFIER_API_KEY: zerobounce.apiKey,
      EMAIL_VERIFIER_API_URL: zerobounce.url,
      DNS_SERVERS: "off",
    },
  });
}

/** Stops the server, killing it when a blocked event loop keeps it from exiting. */
async function stopServer(server: AppServer): Promise<void> {
  const killer = setTimeout(() => server.process.kill("SIGKILL"), 5000);
  await server.stop();
  clearTimeout(killer);
}

/** One /api/health request on a fresh connection: its time (the timeout when it gets no answer). */
function probeOnce(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.get(
      `${base}/api/health`,
      { agent: false, timeout: PROBE_TIMEOUT_MS },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve(response.statusCode === 200 ? performance.now() - started : PROBE_TIMEOUT_MS),
        );
      },
    );
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(Math.max(performance.now() - started, PROBE_TIMEOUT_MS)));
  });
}

const probes: { at: number; ms: number }[] = [];
let probing = true;
let prober: Promise<void> = Promise.resolve();
const startProbing = () => {
  prober = (async () => {
    while (probing) {
      const at = performance.now();
      probes.push({ at, ms: await probeOnce() });
      await sleep(PROBE_EVERY_MS);
    }
  })();
};
const probesSince = (from: number, to = Infinity) =>
  probes.filter((probe) => probe.at >= from && probe.at < to).map((probe) => probe.ms);

/** Queries of the bench's database still running, other than this one's. */
async function activeQueries(): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
  );
  return rows[0].n;
}

/** The server's CPU share (of one core) while only the health probes run, measured in the quiet
 * period: the probes are never idle, so quiet means no more than that. */
let probeShare = 0;

/** Waits for the server and the database to go quiet; false when they did not within DRAIN_MS. */
async function drained(pid: number): Promise<boolean> {
  const deadline = Date.now() + DRAIN_MS;
  while (Date.now() < deadline) {
    const before = cpuMs(pid);
    await sleep(500);
    if (cpuMs(pid) - before < 500 * (probeShare + IDLE_SHARE) && (await activeQueries()) === 0) return true;
  }
  return false;
}

// ---- Setup ------------------------------------------------------------------------------------------

async function post(path: string, address: string, body: unknown): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify(body),
  });
}

/** Creates an order from `address`; answers its key and test invoice id. */
async function createOrder(
  categoryId: string,
  packageType: string,
  address: string,
): Promise<{ key: string; invoiceId: string }> {
  const response = await post("/api/payment/create", address, { categoryId, packageType, location: "USA" });
  if (!response.ok) throw new Error(`create answered ${response.status}: ${await response.text()}`);
  const { paymentId } = (await response.json()) as { paymentId: string };
  const { rows } = await pool.query<{ invoice_id: string }>(
    "SELECT invoice_id FROM orders WHERE download_key = $1",
    [paymentId],
  );
  return { key: paymentId, invoiceId: rows[0].invoice_id };
}

/** Pays an order as the test payment page does: Pay, then the return's status check. */
async function payOrder(order: { key: string; invoiceId: string }, address: string): Promise<void> {
  const paid = await fetch(`${base}/api/payment/test/${order.invoiceId}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": address },
    body: "action=pay",
    redirect: "manual",
  });
  const npId = new URL(paid.headers.get("location") ?? "", base).searchParams.get("NP_id");
  if (!npId) throw new Error(`The test payment answered ${paid.status} without a payment id`);
  for (let attempt = 0; attempt < 60; attempt++) {
    const status = await fetch(`${base}/api/payment/status/${order.key}?NP_id=${npId}`, {
      headers: { "x-forwarded-for": address },
    });
    if (((await status.json()) as { paid?: boolean }).paid) return;
    await sleep(1000);
  }
  throw new Error("The premium order was not paid within 60 s");
}

/** Uploads a 100,000-entry list from `address`: the category's addresses, then others. */
async function uploadList(categoryId: string, address: string): Promise<string> {
  const { rows } = await pool.query<{ email: string }>(
    "SELECT email FROM leads WHERE category_id = $1 LIMIT $2",
    [categoryId, LIST_ENTRIES],
  );
  const lines = ["email", ...rows.map((row) => row.email)];
  for (let index = 0; lines.length <= LIST_ENTRIES; index++)
    lines.push(`someone${index}@elsewhere${index % 500}.example`);
  const { headers, body } = multipart({}, [
    { field: "file", name: "customers.csv", type: "text/csv", data: Buffer.from(lines.join("\n")) },
  ]);
  const response = await fetch(`${base}/api/suppression-lists`, {
    method: "POST",
    headers: { ...headers, "x-forwarded-for": address },
    body: new Uint8Array(body),
  });
  if (response.status !== 201)
    throw new Error(`The list upload answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { suppressionListId: string }).suppressionListId;
}

async function setup(): Promise<AbuseContext> {
  const { rows: categories } = await pool.query<{ id: string }>(
    "SELECT id FROM categories ORDER BY count DESC, id LIMIT 1",
  );
  const categoryId = categories[0].id;
  const { rows: leads } = await pool.query<{ id: string }>(
    "SELECT id::text FROM leads WHERE category_id = $1 ORDER BY id LIMIT 1",
    [categoryId],
  );
  const paid = await createOrder(categoryId, "premium", "192.0.2.1");
  await payOrder(paid, "192.0.2.1");
  const { rows: emails } = await pool.query<{ email: string }>(
    `SELECT l.email FROM order_leads ol JOIN orders o ON o.id = ol.order_id JOIN leads l ON l.id = ol.lead_id
      WHERE o.download_key = $1 ORDER BY ol.position LIMIT 1000`,
    [paid.key],
  );
  const open = await createOrder(categoryId, "starter", "192.0.2.2");
  const owners = ["192.0.2.10", "192.0.2.11", "192.0.2.12"];
  const lists = [];
  for (const address of owners) lists.push({ id: await uploadList(categoryId, address), address });
  return {
    categoryId,
    leadId: leads[0].id,
    paidKey: paid.key,
    paidEmails: emails.map((row) => row.email),
    openKey: open.key,
    openInvoiceId: open.invoiceId,
    lists,
  };
}

// ---- The abuse ----------------------------------------------------------------------------------------

type InputResult = {
  entry: AbuseEntry;
  input: AbuseInput;
  sent: Sent[];
  cpuPerRequest: number;
  healthP95: number;
  busy: boolean;
};

async function abuse(
  server: AppServer,
  context: AbuseContext,
  entryIndex: number,
  input: AbuseInput,
): Promise<{ sent: Sent[]; cpu: number; from: number; busy: boolean }> {
  const pid = server.process.pid!;
  // Made by the sender before the clock starts: the files are the bench's cost, not the server's.
  const { path } = await tellSender({ kind: "build", entryIndex, inputName: input.name, context }, "built");
  // Next.js loads a route's code on its first request, once per process: an OPTIONS request (which
  // Next.js answers itself, without running the handler) pays that before the clock starts.
  await fetch(`${base}${path}`, { method: "OPTIONS" }).then((response) => response.arrayBuffer());
  await drained(pid);
  const from = performance.now();
  const cpuBefore = cpuMs(pid);
  const { sent } = await tellSender(
    {
      kind: "send",
      base,
      addressPrefix: `198.18.${entryIndex}`,
      timeoutMs: REQUEST_TIMEOUT_MS,
      sustainMs: SUSTAIN_MS,
      burstMs: BURST_MS,
    },
    "sent",
  );
  const quiet = await drained(pid);
  const probesCpu = probeShare * (performance.now() - from);
  return { sent, cpu: Math.max(0, cpuMs(pid) - cpuBefore - probesCpu), from, busy: !quiet };
}

const endpointName = (entry: AbuseEntry) =>
  `${entry.method}_${entry.path.replace(/^\/api\//, "")}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/_$/, "");

function answers(sent: Sent[]): string {
  const counts = new Map<string, number>();
  for (const one of sent) counts.set(String(one.status), (counts.get(String(one.status)) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count} x ${status}`).join(", ");
}

let server: AppServer | undefined;
try {
  const started = Date.now();
  const seeded = await seedDemoData(pool);
  console.log(
    `Demo data: ${seeded.leads.toLocaleString("en-US")} leads in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  server = await startServer();
  const context = await setup();
  console.log(
    `Setup: a paid premium order, an open order, ${context.lists.length} lists of ${LIST_ENTRIES.toLocaleString("en-US")} entries`,
  );

  startProbing();
  const quietFrom = performance.now();
  const quietCpu = cpuMs(server.process.pid!);
  await sleep(QUIET_MS);
  probeShare = (cpuMs(server.process.pid!) - quietCpu) / QUIET_MS;
  const quietBefore = probesSince(quietFrom);

  const results: InputResult[] = [];
  for (const [entryIndex, entry] of ABUSE_ENDPOINTS.entries()) {
    for (const input of entry.inputs.filter((one) => !only || one.name.includes(only))) {
      const run = await abuse(server, context, entryIndex, input);
      const health = probesSince(run.from);
      const result: InputResult = {
        entry,
        input,
        sent: run.sent,
        cpuPerRequest: run.sent.length ? run.cpu / run.sent.length : 0,
        healthP95: percentile(health, 0.95),
        busy: run.busy,
      };
      results.push(result);
      const times = run.sent.map((one) => one.ms);
      console.log(
        `${entry.method} ${entry.path} ${input.name}: ${run.sent.length} requests, ${input.clients} at once from ${new Set(run.sent.map((one) => one.address)).size} address(es) ` +
          `(${answers(run.sent)}); request p50 ${percentile(times, 0.5).toFixed(0)} ms, p95 ${percentile(times, 0.95).toFixed(0)} ms; ` +
          `server CPU ${result.cpuPerRequest.toFixed(1)} ms a request; /api/health p95 ${result.healthP95.toFixed(0)} ms, ` +
          `max ${Math.max(0, ...health).toFixed(0)} ms` +
          `${run.busy ? `; still busy ${DRAIN_MS / 1000} s after: restarted` : ""}` +
          // The server went on with work its timed-out requests left, or had it cut short.
          `${run.busy || run.sent.some((one) => one.status === "timeout") ? "; the CPU figure is a floor" : ""}`,
      );
      if (run.busy) {
        await pool.query(
          `SELECT pg_cancel_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
        );
        await stopServer(server);
        server = await startServer();
        // A fresh server loads each route on its first request: settle before the next input.
        await drained(server.process.pid!);
      }
    }
  }

  const quietAfterFrom = performance.now();
  await sleep(QUIET_MS);
  const quiet = [...quietBefore, ...probesSince(quietAfterFrom)];
  probing = false;
  await prober;

  const quietP95 = percentile(quiet, 0.95);
  // A bounded route's burst is plain load, which slows any server: the target is for worst inputs.
  const unbounded = results.filter((result) => !result.entry.bounded);
  const worst = (unbounded.length ? unbounded : results).reduce((a, b) =>
    b.healthP95 > a.healthP95 ? b : a,
  );
  console.log(
    `/api/health quiet: p50 ${percentile(quiet, 0.5).toFixed(1)} ms, p95 ${quietP95.toFixed(1)} ms over ${quiet.length} probes, which alone cost ${(probeShare * 100).toFixed(0)}% of a core; ` +
      `under abuse the worst p95 was ${worst.healthP95.toFixed(0)} ms, during ${worst.input.name}`,
  );
  // Claims check their addresses in the background, so the calls are counted for the whole run.
  const checked = zerobounce.calls.reduce((sum, call) => sum + Number(call.split(":")[1]), 0);
  console.log(`Addresses sent to the email provider during the run: ${checked.toLocaleString("en-US")}`);
  console.log("");
  console.log(`ratio health_p95_under_abuse_vs_quiet=${(worst.healthP95 / quietP95).toFixed(2)}`);
  for (const entry of ABUSE_ENDPOINTS.filter((one) => results.some((result) => result.entry === one))) {
    const cpu = Math.max(
      ...results.filter((result) => result.entry === entry).map((result) => result.cpuPerRequest),
    );
    console.log(`ratio cpu_ms_per_request_${endpointName(entry)}=${cpu.toFixed(1)}`);
  }
} finally {
  sender.disconnect();
  probing = false;
  await prober;
  if (server) await stopServer(server);
  await zerobounce.close();
  await pool.end();
  await database.drop();
}
