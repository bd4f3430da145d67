// npm run bench:orders - the buyer's order figures against the production build, in a throw-away
// database with the NOWPayments stand-in: how many provider calls 1,000 requests for unknown ids
// cause (downloads, status and order pages; ids walked around a real invoice and payment, each
// request claiming its own address: where the server believes it, the per-address limit does not
// hide anything), and the time to first byte of the order page /order/{key}.
// Needs a build: `npm run build` (or NEXT_DIST_DIR pointing at another build). Target: 0 calls.
import http from "node:http";
import { Pool } from "pg";
import { createCategoryWithLeads } from "../prisma/demo-data";
import { startAppServer } from "../tests/support/app-server";
import { fromAddress } from "../tests/support/client";
import { createTestDatabase } from "../tests/support/database";
import { startNowPaymentsStandin } from "../tests/support/nowpayments-standin";
import { median } from "./bench-stats";

const port = Number(process.env.BENCH_PORT ?? 43_950);
const base = `http://127.0.0.1:${port}`;
const TTFB_RUNS = 50;

/** Milliseconds from sending the request to the first byte of the answer's body. */
function timeToFirstByte(path: string): Promise<{ ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const request = http.get(`${base}${path}`, (response) => {
      response.once("data", () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        response.resume();
        response.on("end", () => resolve({ ms, status: response.statusCode ?? 0 }));
      });
    });
    request.on("error", reject);
  });
}

async function main(): Promise<void> {
  const database = await createTestDatabase("leadmarket_bench_orders");
  const pool = new Pool({ connectionString: database.url });
  const standin = await startNowPaymentsStandin({ apiKey: "bench-key", ipnSecret: "bench-ipn" });
  const server = await startAppServer({
    port,
    env: {
      DATABASE_URL: database.url,
      APP_SECRET: "bench-orders-secret-0123456789-0123456789",
      NOWPAYMENTS_API_URL: standin.url,
      NOWPAYMENTS_API_KEY: "bench-key",
      NOWPAYMENTS_IPN_SECRET: "bench-ipn",
      PAYMENTS_TEST_MODE: "0",
      SMTP_URL: "",
      // Every request comes from 127.0.0.1: the bench acts as the one proxy and names each client.
      TRUST_PROXY_HOPS: "1",
    },
    stdout: "ignore",
  });
  try {
    const category = await createCategoryWithLeads(pool, { title: "Bench Orders" }, 1200, 41);
    const created = (await (
      await fetch(`${base}/api/payment/create`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ categoryId: category, packageType: "starter" }),
      })
    ).json()) as { paymentId: string };
    const key = created.paymentId;
    const { rows } = await pool.query<{ invoice_id: string }>(
      "SELECT invoice_id FROM orders WHERE download_key = $1",
      [key],
    );
    const invoiceId = Number(rows[0].invoice_id);
    const payment = standin.pay(String(invoiceId), { status: "finished" });
    if ((await standin.sendIpn(payment.payment_id)) !== 200) throw new Error("The payment was not applied");

    const before = standin.paymentLookups();
    const counts = new Map<number, number>();
    const paths = ["/api/leads/download/", "/api/payment/status/", "/api/orders/"];
    for (let i = 0; i < 1000; i += 1) {
      const id = i % 2 === 0 ? invoiceId + i + 1 : payment.payment_id + i + 1;
      const response = await fetch(`${base}${paths[i % 3]}${id}`, {
        headers: fromAddress(`10.9.${Math.floor(i / 250)}.${i % 250}`),
      });
      await response.arrayBuffer();
      counts.set(response.status, (counts.get(response.status) ?? 0) + 1);
    }
    const calls = standin.paymentLookups() - before;
    console.log(`1,000 requests for unknown ids (each from its own address): ${calls} provider calls`);
    console.log(`  answers: ${[...counts].map(([status, count]) => `${count} x ${status}`).join(", ")}`);

    const page = `/order/${key}`;
    const first = await timeToFirstByte(page);
    const times: number[] = [];
    for (let i = 0; i < TTFB_RUNS; i += 1) times.push((await timeToFirstByte(page)).ms);
    console.log(
      `Order page time to first byte: first ${first.ms.toFixed(1)} ms (HTTP ${first.status}), ` +
        `median of ${TTFB_RUNS} ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`,
    );
  } finally {
    await server.stop();
    await standin.close();
    await pool.end();
    await database.drop();
  }
}

await main();
