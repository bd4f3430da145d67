// npm run bench:upload - 24 custom-request uploads of 50 MB each (5 CSV files of 10 MB, the most
// one request may carry) sent at once to the production build from 24 client addresses, while
// /api/health is timed every 100 ms. Prints the server's RSS growth and /api/health's latency, and
// how the uploads were answered. Then the trickle case: 8 clients each send an upload a byte every
// 2 s while another visitor uploads a small file. Targets: growth < 150 MB, /api/health < 200 ms,
// the visitor's upload answered 201 within 2 s. Needs a build: `npm run build` (or NEXT_DIST_DIR
// pointing at another build).
import { readFileSync } from "node:fs";
import http from "node:http";
import { connect, type Socket } from "node:net";
import { startAppServer } from "../tests/support/app-server";
import { createTestDatabase } from "../tests/support/database";

const UPLOADS = 24;
const FILES = 5;
const FILE_BYTES = 10 * 1024 * 1024;
const port = Number(process.env.BENCH_PORT ?? 43_950);
const base = `http://127.0.0.1:${port}`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : 0;
}

const BOUNDARY = "----leadmarket-bench-upload";
// One 10 MB CSV, shared by every part: the benchmark's own memory stays small.
const csv = Buffer.alloc(FILE_BYTES, "lead,company\n");

/** Sends one multipart upload, streaming the same file buffer five times; answers the status. */
function upload(index: number): Promise<number> {
  const head = (name: string, value: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const fields = Buffer.from(
    head("name", `Bench ${index}`) +
      head("email", `bench-${index}@example.com`) +
      head("platforms", "linkedin"),
  );
  const fileHead = (n: number) =>
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="leads-${n}.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    );
  const parts: Buffer[] = [fields];
  for (let n = 0; n < FILES; n += 1) parts.push(fileHead(n), csv, Buffer.from("\r\n"));
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  return new Promise((resolve) => {
    let status = 0;
    const request = http.request(
      `${base}/api/custom-request`,
      {
        method: "POST",
        agent: false,
        headers: {
          "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
          "content-length": String(length),
          // The bench stands in for one proxy, so each upload counts as another client.
          "x-forwarded-for": `198.51.100.${index + 1}`,
        },
      },
      (response) => {
        status = response.statusCode ?? 0;
        response.resume();
        response.on("end", () => resolve(status));
      },
    );
    // A refused upload is answered before its body is read, and the server then closes the line.
    request.on("error", () => resolve(status));
    const write = async () => {
      for (const part of parts) {
        if (request.destroyed) return;
        if (!request.write(part)) await new Promise((drained) => request.once("drain", drained));
      }
      request.end();
    };
    void write();
  });
}

/** An upload whose file then arrives one byte every 2 s, from its own client address. */
function trickle(index: number): Socket {
  const head =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nTrickle ${index}\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="email"\r\n\r\ntrickle-${index}@example.com\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="slow.csv"\r\n\r\na,b\n`;
  const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => undefined);
  socket.write(
    `POST /api/custom-request HTTP/1.1\r\nhost: 127.0.0.1\r\ntransfer-encoding: chunked\r\n` +
      `content-type: multipart/form-data; boundary=${BOUNDARY}\r\nx-forwarded-for: 203.0.113.${index + 1}\r\n\r\n${chunk(head)}`,
  );
  const timer = setInterval(() => socket.writable && socket.write(chunk("a")), 2000);
  socket.on("close", () => clearInterval(timer));
  return socket;
}

/** Another visitor's small upload while 8 clients trickle: its status and time. */
async function uploadWhileTrickling(): Promise<{ status: number; ms: number }> {
  const tricklers = Array.from({ length: 8 }, (_, index) => trickle(index));
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const form = new FormData();
    form.set("name", "Visitor");
    form.set("email", "visitor@example.com");
    form.set("platforms", "linkedin");
    form.set("files", new Blob(["name,email\nAda,ada@example.com\n"], { type: "text/csv" }), "leads.csv");
    const started = performance.now();
    const response = await fetch(`${base}/api/custom-request`, {
      method: "POST",
      body: form,
      headers: { "x-forwarded-for": "203.0.113.100" },
    });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } finally {
    for (const socket of tricklers) socket.destroy();
  }
}

async function timeHealth(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}/api/health`);
  await response.arrayBuffer();
  return performance.now() - started;
}

const database = await createTestDatabase("leadmarket_bench_upload");
const server = await startAppServer({
  port,
  stdout: "ignore",
  env: {
    DATABASE_URL: database.url,
    APP_SECRET: "bench-secret-0123456789-0123456789-abcdef",
    SMTP_URL: "",
    TRUST_PROXY_HOPS: "1",
  },
});
try {
  const pid = server.process.pid!;
  for (let index = 0; index < 5; index += 1) await timeHealth();
  const idle = await timeHealth();
  const baseline = rssOf(pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  const latencies: number[] = [];
  let running = true;
  const prober = (async () => {
    while (running) {
      latencies.push(await timeHealth());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const started = performance.now();
  const statuses = await Promise.all(Array.from({ length: UPLOADS }, (_, index) => upload(index)));
  const elapsed = performance.now() - started;
  running = false;
  await prober;
  clearInterval(sampler);

  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  latencies.sort((a, b) => a - b);
  const median = latencies[Math.floor(latencies.length / 2)];
  const worst = latencies.at(-1) ?? 0;
  console.log(
    `${UPLOADS} concurrent uploads of ${mb(FILES * FILE_BYTES)} in ${(elapsed / 1000).toFixed(1)} s`,
  );
  console.log(
    `  answers: ${[...counts].map(([status, count]) => `${count} x ${status || "connection closed"}`).join(", ")}`,
  );
  console.log(
    `  server RSS: ${mb(baseline)} -> peak ${mb(peak)} (growth ${mb(peak - baseline)}; target < 150 MB)`,
  );
  console.log(
    `  /api/health: idle ${idle.toFixed(0)} ms; during the uploads median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms over ${latencies.length} probes (target < 200 ms)`,
  );
  const visitor = await uploadWhileTrickling();
  console.log(
    `another visitor's upload while 8 clients trickle: ${visitor.status} in ${visitor.ms.toFixed(0)} ms (target 201 within 2000 ms)`,
  );
} finally {
  await server.stop();
  await database.drop();
}
