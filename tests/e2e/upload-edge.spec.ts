// The HTTP edge under uploads, against a production server of its own (its output read for
// uncaught exceptions) on a fresh database: an early refusal never breaks the client's next
// request on a kept-alive connection; a claim upload is refused before its body when the key names
// no paid order, and a paid order's worst-case file is read in linear time; trickling clients
// never block another visitor's upload; odd multipart parts answer 4xx; a silent upload ends in
// 408; aborted uploads and refused bodies leave no uncaught exception or unhandled rejection.
import { expect, test } from "@playwright/test";
import { startAppServer, type AppServer } from "../support/app-server";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { field, fileHead, multipart, MULTIPART, seedUploadTargets, trickle } from "../support/uploads";

test.describe.configure({ mode: "serial" });

const APP_SECRET = "edge-secret-0123456789-0123456789-abcdef";
const MB = 1024 * 1024;
const UNKNOWN_KEY = "A".repeat(43);

let database: TestDatabase;
let server: AppServer;
let output = "";
let orderKey = "";
let categoryId = "";
let adminToken = "";
let nextClient = 1;
/** Each call names another client (the server trusts one proxy hop). */
const client = () => ({ "x-forwarded-for": `198.51.100.${nextClient++}` });
const asClient = () => ({ "content-type": MULTIPART, ...client() });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await createTestDatabase("leadmarket_edge");
  ({ categoryId, orderKey, adminToken } = await seedUploadTargets(database.url, APP_SECRET));
  server = await startAppServer({
    env: { DATABASE_URL: database.url, APP_SECRET, SMTP_URL: "", TRUST_PROXY_HOPS: "1" },
    onOutput: (text) => (output += text),
  });
});

test.afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const requestFields = (label: string) =>
  field("name", "Edge Tester") +
  field("email", `${label}-${Date.now()}@example.com`) +
  field("platforms", "linkedin");

async function post(path: string, body: BodyInit, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`${server.url}${path}`, { method: "POST", body, headers });
  await response.arrayBuffer();
  return response.status;
}

const validRequest = () =>
  post(
    "/api/custom-request",
    JSON.stringify({ name: "Edge", email: `ok-${Date.now()}@example.com`, platforms: ["slack"] }),
    { "content-type": "application/json", ...client() },
  );

test("an early refusal never breaks the next request on a kept-alive connection", async () => {
  const bigCsv = Buffer.alloc(11 * MB, "a,b\n");
  // Sequential fetches reuse the one idle connection (undici's keep-alive).
  expect(
    await post(
      "/api/custom-request",
      multipart(requestFields("big") + fileHead("files", "big.csv"), bigCsv),
      asClient(),
    ),
  ).toBe(413);
  expect(
    await post(
      "/api/custom-request",
      multipart(requestFields("exe") + fileHead("files", "tool.exe"), "MZ"),
      asClient(),
    ),
  ).toBe(400);
  expect(await validRequest()).toBe(201);

  expect(
    await post(
      `/api/orders/${orderKey}/replacement`,
      multipart(fileHead("file", "claim.csv"), bigCsv),
      asClient(),
    ),
  ).toBe(413);
  expect(await validRequest()).toBe(201);

  expect(
    await post("/api/orders/lookup", JSON.stringify({ email: "x".repeat(100 * 1024) }), {
      "content-type": "application/json",
      ...client(),
    }),
  ).toBe(413);
  expect(await validRequest()).toBe(201);

  // An import without an email column is refused at its header, the rest of the file unread.
  const noEmail = Buffer.concat([Buffer.from("name,company\n"), Buffer.alloc(8 * MB, "Ada,Acme\n")]);
  expect(
    await post(
      `/api/admin/categories/${categoryId}/leads`,
      multipart(fileHead("file", "leads.csv"), noEmail),
      { "content-type": MULTIPART, authorization: `Bearer ${adminToken}` },
    ),
  ).toBe(400);
  expect(await validRequest()).toBe(201);
});

test("a claim upload is refused before its body for an unknown key, and read in linear time for a paid order", async () => {
  const letters = Buffer.alloc(MB, "a");
  const started = Date.now();
  expect(
    await post(
      `/api/orders/${UNKNOWN_KEY}/replacement`,
      multipart(fileHead("file", "claim.csv"), letters),
      asClient(),
    ),
  ).toBe(404);
  expect(Date.now() - started).toBeLessThan(2000);

  const health = (async () => {
    const before = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const response = await fetch(`${server.url}/api/health`);
    await response.arrayBuffer();
    return Date.now() - before;
  })();
  const claimStarted = Date.now();
  expect(
    await post(
      `/api/orders/${orderKey}/replacement`,
      multipart(fileHead("file", "claim.csv"), letters),
      asClient(),
    ),
  ).toBe(400);
  expect(Date.now() - claimStarted).toBeLessThan(3000);
  expect(await health).toBeLessThan(3000);
});

test("eight trickling uploads never block another visitor's upload", async () => {
  const tricklers = Array.from({ length: 8 }, (_, index) =>
    trickle(
      `${server.url}/api/custom-request`,
      requestFields(`trickle${index}`) + fileHead("files", "slow.csv") + "a,b\n",
      client(),
      2000,
    ),
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const started = Date.now();
    const status = await post(
      "/api/custom-request",
      multipart(
        requestFields("visitor") + fileHead("files", "leads.csv"),
        "name,email\nAda,ada@example.com\n",
      ),
      asClient(),
    );
    expect(status).toBe(201);
    expect(Date.now() - started).toBeLessThan(2000);
  } finally {
    for (const trickler of tricklers) trickler.stop();
  }
});

test("one address has at most two uploads in flight", async () => {
  const headers = client();
  const held = [0, 1].map((index) =>
    trickle(
      `${server.url}/api/custom-request`,
      requestFields(`held${index}`) + fileHead("files", "slow.csv") + "a,b\n",
      headers,
      2000,
    ),
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const status = await post(
      "/api/custom-request",
      multipart(requestFields("third") + fileHead("files", "leads.csv"), "name,email\nAda,ada@example.com\n"),
      { "content-type": MULTIPART, ...headers },
    );
    expect(status).toBe(429);
  } finally {
    for (const upload of held) upload.stop();
  }
});

test("odd multipart parts answer 4xx, never 503, all at once", async () => {
  const odd: [string, string | Buffer][] = [
    [fileHead("files", "empty.pdf"), ""],
    [fileHead("files", ""), "%PDF-1.4\n"],
    [fileHead("files", "../../etc/passwd.pdf"), "not a pdf"],
    [fileHead("files", "\u00fcnïcødé.pdf"), "plain text"],
    [field("platforms", "[broken") + fileHead("files", "a.csv"), "a,b\n"],
  ];
  const statuses = await Promise.all(
    odd.map(([head, file]) =>
      post(
        "/api/custom-request",
        multipart(field("name", "Odd") + field("email", `odd-${Date.now()}@example.com`) + head, file),
        asClient(),
      ),
    ),
  );
  for (const status of statuses) {
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  }
});

test("an upload that stops sending is answered 408 after 15 s of silence", async () => {
  test.setTimeout(40_000);
  // 64 KB first: at 2 KB/s that is 32 s of allowance, so the silence is what ends it.
  const silent = trickle(
    `${server.url}/api/custom-request`,
    requestFields("silent") + fileHead("files", "slow.csv") + "a,b\n".repeat(16 * 1024),
    client(),
    0,
  );
  try {
    const started = Date.now();
    expect(await silent.status).toBe(408);
    expect(Date.now() - started).toBeGreaterThanOrEqual(14_000);
  } finally {
    silent.stop();
  }
});

test("aborted uploads and refused bodies leave no uncaught exception or unhandled rejection", async () => {
  const routes: [string, string, Record<string, string>][] = [
    ["/api/custom-request", requestFields("abort") + fileHead("files", "a.csv"), client()],
    [`/api/orders/${orderKey}/replacement`, fileHead("file", "claim.csv"), client()],
    [
      `/api/admin/categories/${categoryId}/leads`,
      fileHead("file", "leads.csv") + "email\n",
      { authorization: `Bearer ${adminToken}` },
    ],
  ];
  for (const [path, head, headers] of routes) {
    // Aborted at once, after a little of the file, and after a lot of it.
    for (const bytes of [0, 1024, 3 * MB]) {
      const upload = trickle(
        `${server.url}${path}`,
        head + "a@b.co\n".repeat(Math.ceil(bytes / 7)),
        { ...headers, ...client() },
        0,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      upload.stop();
    }
    // Refused bodies: a declared length over the limit and a file over it.
    await post(path, multipart(head, Buffer.alloc(12 * MB, "a")), {
      "content-type": MULTIPART,
      ...headers,
      ...client(),
    }).catch(() => 0);
  }
  await post("/api/orders/lookup", "x".repeat(200 * 1024), {
    "content-type": "application/json",
    ...client(),
  });
  // Refused while the client is still sending: reading stops while the server waits for more.
  const refusedMidway = [
    trickle(
      `${server.url}/api/custom-request`,
      `${requestFields("exe") + fileHead("files", "tool.exe")}MZ\r\n${fileHead("files", "slow.csv")}`,
      client(),
      0,
    ),
    trickle(
      `${server.url}/api/orders/lookup`,
      `{"email":"${"x".repeat(100 * 1024)}`,
      { ...client(), "content-type": "application/json" },
      0,
    ),
  ];
  for (const upload of refusedMidway) expect(await upload.status).toBeGreaterThanOrEqual(400);
  for (const upload of refusedMidway) upload.stop();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  expect(output).not.toMatch(/uncaughtException|unhandledRejection|Unhandled Rejection/i);
});
