// Downloads against the production build, over real sockets: one buyer's stalled downloads cannot
// block another buyer's, a stalled reader is dropped, and downloads aborted at any point (in every
// format) leave no uncaught exception or unhandled rejection in the server's log.
import { connect, type Socket } from "node:net";
import { expect, test } from "@playwright/test";
import { Pool } from "pg";
import { createCategoryWithLeads } from "../../prisma/demo-data";
import { startAppServer, type AppServer } from "../support/app-server";
import { createTestDatabase, type TestDatabase } from "../support/database";

const IDLE_SECONDS = 3;
const UNCAUGHT = /uncaughtException|unhandledRejection|already closed|Invalid state/i;

let database: TestDatabase;
let server: AppServer;
let categoryId: string;
let log = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  database = await createTestDatabase("leadmarket_downloads");
  const pool = new Pool({ connectionString: database.url });
  categoryId = await createCategoryWithLeads(pool, { title: "Downloads" }, 20_000, 31);
  await pool.end();
  server = await startAppServer({
    env: {
      DATABASE_URL: database.url,
      APP_SECRET: "downloads-secret-0123456789-0123456789-abc",
      PAYMENTS_TEST_MODE: "1",
      ALLOW_TEST_PAYMENTS_IN_PRODUCTION: "1",
      SMTP_URL: "",
      ORDER_CREATE_LIMIT: "0",
      // The test acts as one proxy and names each buyer in X-Forwarded-For.
      TRUST_PROXY_HOPS: "1",
      DOWNLOAD_IDLE_SECONDS: String(IDLE_SECONDS),
    },
    onOutput: (text) => (log += text),
  });
});

test.afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

/** A paid premium order (20,000 leads) bought through the test payment page; its download key. */
async function paidOrder(): Promise<string> {
  const created = (await (
    await fetch(`${server.url}/api/payment/create`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ categoryId, packageType: "premium" }),
    })
  ).json()) as { paymentId: string; invoiceUrl: string };
  const invoiceId = new URL(created.invoiceUrl).pathname.split("/").at(-1)!;
  const paid = await fetch(`${server.url}/api/payment/test/${invoiceId}`, {
    method: "POST",
    body: new URLSearchParams({ action: "pay" }),
    redirect: "manual",
  });
  const npId = new URL(paid.headers.get("location")!).searchParams.get("NP_id")!;
  const status = await fetch(`${server.url}/api/payment/status/${created.paymentId}?NP_id=${npId}`);
  expect(((await status.json()) as { paid: boolean }).paid).toBe(true);
  return created.paymentId;
}

type Raw = { socket: Socket; status: Promise<number> };

/** A download over a raw socket that reads the first piece of the answer, then stops reading. */
function stalledDownload(path: string, address: string): Raw {
  const { port } = new URL(server.url);
  const socket = connect(Number(port), "127.0.0.1");
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: ${address}\r\n\r\n`);
  const status = new Promise<number>((resolve, reject) => {
    socket.once("data", (chunk: Buffer) => {
      socket.pause();
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString("latin1"))?.[1]));
    });
    socket.once("error", reject);
  });
  socket.on("error", () => undefined);
  return { socket, status };
}

/** Reads the rest of what a paused socket holds until the server closes it; the last bytes. */
function drained(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let tail = "";
    socket.on("data", (chunk: Buffer) => (tail = (tail + chunk.toString("latin1")).slice(-16)));
    socket.once("close", () => resolve(tail));
    socket.resume();
  });
}

test("10 stalled downloads of one order leave another buyer's download answering at once", async () => {
  test.setTimeout(120_000);
  const stalledKey = await paidOrder();
  const otherKey = await paidOrder();
  const stalled = Array.from({ length: 10 }, () =>
    stalledDownload(`/api/leads/download/${stalledKey}`, "10.20.0.1"),
  );
  const statuses = await Promise.all(stalled.map((download) => download.status));
  expect(statuses.filter((status) => status === 200)).toHaveLength(2);
  expect(statuses.filter((status) => status === 429)).toHaveLength(8);

  const started = Date.now();
  const response = await fetch(`${server.url}/api/leads/download/${otherKey}`, {
    headers: { "x-forwarded-for": "10.20.0.2" },
  });
  expect(response.status).toBe(200);
  expect(Date.now() - started).toBeLessThan(2_000);
  const lines = (await response.text()).trimEnd().split("\r\n");
  expect(lines).toHaveLength(20_001);

  // The stalled readers are dropped after the idle deadline: read again later, their answers turn
  // out cut short (no chunked encoding's last chunk) and their connections closed by the server.
  await new Promise((resolve) => setTimeout(resolve, (IDLE_SECONDS + 2) * 1000));
  const held = stalled.filter((_, index) => statuses[index] === 200);
  const tails = await Promise.all(held.map((download) => drained(download.socket)));
  for (const tail of tails) expect(tail.endsWith("\r\n0\r\n\r\n")).toBe(false);
  for (const download of stalled) download.socket.destroy();
  // Their places are free again.
  const again = await fetch(`${server.url}/api/leads/download/${stalledKey}`, {
    headers: { "x-forwarded-for": "10.20.0.1" },
  });
  expect(again.status).toBe(200);
  expect((await again.text()).trimEnd().split("\r\n")).toHaveLength(20_001);
  expect(log).not.toMatch(UNCAUGHT);
});

test("downloads aborted at any point log no uncaught exception or unhandled rejection", async () => {
  test.setTimeout(120_000);
  const key = await paidOrder();
  let address = 0;
  for (const format of ["csv", "xlsx", "hubspot", "salesforce", "json", "ndjson"]) {
    const path = `/api/leads/download/${key}?format=${format}`;
    // Before the answer, on its first bytes, and after some of the body, over raw sockets.
    for (const abortAfter of [0, 1, 256 * 1024]) {
      for (let round = 0; round < 3; round++) {
        const { port } = new URL(server.url);
        const socket = connect(Number(port), "127.0.0.1");
        socket.on("error", () => undefined);
        socket.write(
          `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: 10.21.0.${++address}\r\n\r\n`,
        );
        await new Promise<void>((resolve) => {
          let received = 0;
          const abort = () => {
            socket.destroy();
            resolve();
          };
          if (abortAfter === 0) return void setTimeout(abort, 5);
          socket.on("data", (chunk: Buffer) => {
            received += chunk.length;
            if (received >= abortAfter) abort();
          });
          socket.once("close", () => resolve());
        });
      }
    }
    // Through fetch, aborted mid-body.
    for (let round = 0; round < 3; round++) {
      const controller = new AbortController();
      const response = await fetch(`${server.url}${path}`, {
        signal: controller.signal,
        headers: { "x-forwarded-for": `10.21.1.${++address}` },
      });
      const reader = response.body!.getReader();
      await reader.read();
      controller.abort();
      await reader.read().catch(() => undefined);
    }
  }
  // Every aborted download lets go (the server sees a closed socket when it next writes, which on a
  // busy machine takes a moment): the order then downloads whole again, twice at once.
  const downloadTwice = () =>
    Promise.all(
      [1, 2].map(async (index) => {
        const response = await fetch(`${server.url}/api/leads/download/${key}`, {
          headers: { "x-forwarded-for": `10.21.2.${index}` },
        });
        const text = await response.text();
        return response.status === 200 ? text.trimEnd().split("\r\n").length : response.status;
      }),
    );
  await expect.poll(downloadTwice, { timeout: 20_000 }).toEqual([20_001, 20_001]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(log).not.toMatch(UNCAUGHT);
});
