// Two app instances started with `npm start`'s script on one fresh database, behind a round-robin
// proxy on loopback: migrations run once, the per-address limit and sign-in throttling are shared
// (and, with TRUST_PROXY_HOPS unset, a client's X-Forwarded-For cannot pick its own bucket), and
// each outbox mail is sent once although both instances' workers poll the same table, and a
// catalogue change made through one instance shows on the other's next request although both
// serve the catalogue pages from their own cache.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { SignJWT } from "jose";
import { Pool } from "pg";
import { freePort } from "../../scripts/free-port";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { startSmtpCatcher, type SmtpCatcher } from "../support/smtp";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

type Instance = { child: ChildProcess; output: () => string; port: number };

function startInstance(port: number, env: Record<string, string>): Instance {
  let output = "";
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"],
    {
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output, port };
}

async function waitUntilServing(instance: Instance): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (instance.child.exitCode !== null) throw new Error(`Instance exited:\n${instance.output()}`);
    const response = await fetch(`http://127.0.0.1:${instance.port}/api/health`).catch(() => null);
    if (response?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Instance did not start:\n${instance.output()}`);
}

/** One request on a new connection, so the proxy hands each to the next instance. */
function send(
  port: number,
  method: string,
  path: string,
  json?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = json === undefined ? undefined : JSON.stringify(json);
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent: false,
        headers: { ...(payload ? { "content-type": "application/json" } : {}), ...headers },
      },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

test.describe.configure({ mode: "serial", timeout: 240_000 });

let database: TestDatabase;
let smtp: SmtpCatcher;
let smtpPort: number;
let instances: Instance[] = [];
let proxy: TcpProxy;
let pool: Pool;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  database = await createTestDatabase("leadmarket_instances", { migrate: false });
  smtp = await startSmtpCatcher();
  smtpPort = Number(new URL(smtp.url).port);
  const ports = [await freePort(), await freePort()];
  const env = {
    DATABASE_URL: database.url,
    APP_SECRET: "instances-secret-0123456789-0123456789-abc",
    PUBLIC_BASE_URL: "http://127.0.0.1:1",
    ADMIN_EMAIL: "owner@instances.test",
    ADMIN_PASSWORD: "instances-password",
    SMTP_URL: smtp.url,
    CUSTOM_REQUEST_LIMIT: "3",
    TRUST_PROXY_HOPS: "0",
    PAYMENTS_TEST_MODE: "0",
    // The imported lead's domain exists nowhere: this file is about instances, not mail domains.
    DNS_SERVERS: "off",
    NODE_ENV: "production",
  };
  instances = ports.map((port) => startInstance(port, env));
  await Promise.all(instances.map(waitUntilServing));
  proxy = await startTcpProxy(ports.map((port) => ({ host: "127.0.0.1", port })));
  pool = new Pool({ connectionString: database.url, max: 2 });
});

test.afterAll(async () => {
  await pool?.end();
  await proxy?.stop();
  await Promise.all(
    instances.map(async ({ child }) => {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    }),
  );
  await smtp?.close();
  await database?.drop();
});

test("migrations ran once although both instances started together", async () => {
  const { rows } = await pool.query<{ migration_name: string; count: number }>(
    `SELECT migration_name, count(*)::int AS count FROM _prisma_migrations GROUP BY migration_name`,
  );
  expect(rows.length).toBeGreaterThanOrEqual(2);
  for (const row of rows) expect(row.count, row.migration_name).toBe(1);
  const applied = instances.filter((instance) => instance.output().includes("Applied migrations"));
  expect(applied).toHaveLength(1);
});

/** An admin token for the instances' secret, signed as lib/auth/session.ts does. */
async function adminToken(): Promise<string> {
  const { rows } = await pool.query<{ id: string; changed: Date }>(
    "SELECT id, password_changed_at AS changed FROM admins WHERE email = 'owner@instances.test'",
  );
  return new SignJWT({ pwv: rows[0].changed.getTime() })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(rows[0].id)
    .setIssuer("leadmarket")
    .setAudience("leadmarket-admin")
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode("instances-secret-0123456789-0123456789-abc"));
}

test("a catalogue change made through one instance shows on the other's next request", async () => {
  const [a, b] = instances.map((instance) => instance.port);
  const auth = { authorization: `Bearer ${await adminToken()}` };
  const created = await send(
    a,
    "POST",
    "/api/admin/categories",
    { title: "Shared Cache", description: "One" },
    auth,
  );
  expect(created.status).toBe(201);
  const id = (JSON.parse(created.body) as { _id: string })._id;
  // A category is public once it has leads: one, imported through A.
  const file = new FormData();
  const csv = "First Name,Last Name,Email,Company,Country\nAda,Lovelace,ada@shared.test,Engines,USA\n";
  file.append("file", new Blob([csv], { type: "text/csv" }), "one.csv");
  const imported = await fetch(`http://127.0.0.1:${a}/api/admin/categories/${id}/leads`, {
    method: "POST",
    headers: auth,
    body: file,
  });
  expect(imported.status).toBe(200);
  // B renders and caches its pages, and serves them from the cache.
  for (const path of ["/", `/category/${id}`, "/api/categories"]) {
    expect((await send(b, "GET", path)).body).toContain("Shared Cache");
  }
  expect((await send(b, "GET", "/sitemap.xml")).body).toContain(id);
  const cached = await fetch(`http://127.0.0.1:${b}/category/${id}`);
  expect(cached.headers.get("x-nextjs-cache")).toBe("HIT");

  const renamed = await send(
    a,
    "PATCH",
    `/api/admin/categories/${id}`,
    { title: "Shared Cache Renamed" },
    auth,
  );
  expect(renamed.status).toBe(200);
  expect((await send(b, "GET", `/category/${id}`)).body).toContain("Shared Cache Renamed");
  expect((await send(b, "GET", "/")).body).toContain("Shared Cache Renamed Professionals - USA");
  expect(JSON.parse((await send(b, "GET", "/api/categories")).body)).toContainEqual(
    expect.objectContaining({ _id: id, title: "Shared Cache Renamed" }),
  );

  expect((await send(a, "DELETE", `/api/admin/categories/${id}`, undefined, auth)).status).toBe(200);
  expect((await send(b, "GET", `/category/${id}`)).status).toBe(404);
  expect((await send(b, "GET", "/sitemap.xml")).body).not.toContain(id);
  expect((await send(b, "GET", "/api/categories")).body).not.toContain(id);
});

test("the per-address limit is shared, and X-Forwarded-For from a client does not pick its bucket", async () => {
  const statuses: number[] = [];
  for (let index = 0; index < 5; index += 1) {
    const answer = await send(
      proxy.port,
      "POST",
      "/api/custom-request",
      { name: "Two Instances", email: `limit-${index}@instances.test`, platforms: ["slack"] },
      { "x-forwarded-for": `203.0.113.${index}` },
    );
    statuses.push(answer.status);
  }
  expect(statuses).toEqual([201, 201, 201, 429, 429]);
});

test("sign-in throttling is shared", async () => {
  for (let index = 0; index < 5; index += 1) {
    const answer = await send(proxy.port, "POST", "/api/admin/login", {
      email: "owner@instances.test",
      password: `wrong-${index}`,
    });
    expect(answer.status).toBe(401);
  }
  for (let index = 0; index < 2; index += 1) {
    const answer = await send(proxy.port, "POST", "/api/admin/login", {
      email: "owner@instances.test",
      password: "instances-password",
    });
    expect(answer.status).toBe(429);
  }
});

test("each outbox mail is sent once by one of the instances, also after an SMTP outage", async () => {
  await smtp.close();
  // Twenty mails waiting at once, as a burst of sales and requests would leave them.
  await pool.query(
    `INSERT INTO mail_outbox (kind, recipient, mail)
     SELECT 'instances-test', 'reader' || n || '@instances.test',
            json_build_object('to', 'reader' || n || '@instances.test', 'subject', 'Outbox ' || n, 'text', 'Once')
       FROM generate_series(1, 20) AS n`,
  );
  await expect
    .poll(
      async () =>
        (await pool.query("SELECT count(*)::int AS n FROM mail_outbox WHERE attempts > 0")).rows[0].n,
      {
        timeout: 20_000,
      },
    )
    .toBeGreaterThan(0);

  smtp = await startSmtpCatcher(smtpPort);
  await expect
    .poll(
      async () =>
        (await pool.query("SELECT count(*)::int AS n FROM mail_outbox WHERE status = 'pending'")).rows[0].n,
      {
        timeout: 60_000,
      },
    )
    .toBe(0);
  // Let both workers poll a few more times: nothing is sent twice.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  expect(smtp.messages.filter((mail) => mail.subject?.startsWith("Outbox "))).toHaveLength(20);
  for (let n = 1; n <= 20; n += 1) {
    expect(smtp.messages.filter((mail) => mail.subject === `Outbox ${n}`)).toHaveLength(1);
  }
});
