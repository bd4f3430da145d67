// A database outage answers 503 with Retry-After (never 500), and the app recovers by itself once
// the database is back. The app reaches PostgreSQL through a loopback proxy the test closes.
import { afterAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../support/database";
import { callJson } from "../support/routes";
import { startTcpProxy } from "../support/tcp-proxy";

const database = await createTestDatabase("leadmarket_outage");
const real = new URL(database.url);
const proxy = await startTcpProxy([{ host: real.hostname, port: Number(real.port || 5432) }]);
const viaProxy = new URL(database.url);
viaProxy.port = String(proxy.port);
Object.assign(process.env, { DATABASE_URL: viaProxy.toString(), CUSTOM_REQUEST_LIMIT: "5" });

const { GET: categories } = await import("@/app/api/categories/route");
const { GET: health } = await import("@/app/api/health/route");
const { POST: customRequest } = await import("@/app/api/custom-request/route");
const { POST: login } = await import("@/app/api/admin/login/route");
const { db, pool } = await import("@/lib/db");

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
  await proxy.stop().catch(() => undefined);
  await database.drop();
});

const calls = {
  "GET /api/categories (Prisma)": () => callJson(categories, "/api/categories"),
  "POST /api/custom-request (raw SQL)": () =>
    callJson(customRequest, "/api/custom-request", {
      json: { name: "Outage", email: "outage@example.com", platforms: ["slack"] },
      headers: { "x-forwarded-for": "192.0.2.99" },
    }),
  "POST /api/admin/login (transaction)": () =>
    callJson(login, "/api/admin/login", {
      json: { email: "admin@example.com", password: "whatever" },
      headers: { "x-forwarded-for": "192.0.2.98" },
    }),
};

describe("database outage", () => {
  it("survives a checked-out connection that the server cuts between two queries", async () => {
    const client = await pool().connect();
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const admin = await pool().connect();
      await admin.query("SELECT pg_terminate_backend($1)", [rows[0].pid]);
      admin.release();
      // Without a listener on the checked-out client, its error event is an uncaught exception.
      await vi.waitFor(() => expect(errors).toHaveBeenCalledWith(expect.stringContaining("connection lost")));
      await expect(client.query("SELECT 1")).rejects.toThrow();
    } finally {
      client.release(true);
      errors.mockRestore();
    }
    expect((await callJson(categories, "/api/categories")).status).toBe(200);
  });

  it("answers 503 with Retry-After while the database is unreachable, and recovers without a restart", async () => {
    expect((await callJson(categories, "/api/categories")).status).toBe(200);

    await proxy.stop();
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      for (const [name, call] of Object.entries(calls)) {
        const answer = await call();
        expect(answer.status, name).toBe(503);
        expect(answer.headers.get("retry-after"), name).toMatch(/^\d+$/);
        expect(answer.body, name).toEqual({
          success: false,
          message: "The service is temporarily unavailable. Please try again shortly.",
        });
      }
      expect((await health()).status).toBe(503);
    } finally {
      errors.mockRestore();
    }

    await proxy.start();
    await vi.waitFor(async () => expect((await callJson(categories, "/api/categories")).status).toBe(200), {
      timeout: 15_000,
      interval: 250,
    });
    expect((await health()).status).toBe(200);
    expect((await calls["POST /api/custom-request (raw SQL)"]()).status).toBe(201);
  });
});
