// Concurrent submissions from one address (an office behind one NAT): all stored below the
// hourly limit, 429 with Retry-After past it, and the stored count always equals the accepted one.
import { afterAll, describe, expect, it, vi } from "vitest";
import { callJson } from "../support/routes";

process.env.CUSTOM_REQUEST_LIMIT = "30";
delete process.env.SMTP_URL;
const info = vi.spyOn(console, "info").mockImplementation(() => undefined);

const { POST } = await import("@/app/api/custom-request/route");
const { closeDatabase, db } = await import("@/lib/db");
const { runOrderMaintenance } = await import("@/lib/orders/maintenance");

afterAll(async () => {
  info.mockRestore();
  await closeDatabase();
});

const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
let counter = 0;

function submit(ip: string) {
  return callJson<{ success: boolean; _id?: string }>(POST, "/api/custom-request", {
    json: { name: "Office Worker", email: `office-${run}-${++counter}@example.com`, platforms: ["linkedin"] },
    headers: { "x-forwarded-for": ip },
  });
}

function submitAll(ip: string, count: number) {
  return Promise.all(Array.from({ length: count }, () => submit(ip)));
}

describe("concurrent custom requests from one address", () => {
  it("stores every one of 25 simultaneous submissions below the limit of 30", async () => {
    const ip = `198.18.${Math.floor(Math.random() * 250)}.1`;
    const answers = await submitAll(ip, 25);
    expect(answers.map((answer) => answer.status)).toEqual(Array(25).fill(201));
    expect(await db().customRequest.count({ where: { clientIp: ip } })).toBe(25);
  });

  it("stores exactly 30 of 50 simultaneous submissions and refuses the rest with Retry-After", async () => {
    const ip = `198.18.${Math.floor(Math.random() * 250)}.2`;
    const answers = await submitAll(ip, 50);
    const accepted = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(accepted.length).toBe(30);
    expect(refused.length).toBe(20);
    for (const answer of refused) expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
    const stored = await db().customRequest.findMany({ where: { clientIp: ip }, select: { id: true } });
    expect(stored.map((row) => row.id).sort()).toEqual(accepted.map((answer) => answer.body._id).sort());
    expect((await submit(ip)).status).toBe(429);
  });

  it("counts a new clock hour afresh, and the upkeep prunes the counts of past hours", async () => {
    const ip = `198.18.${Math.floor(Math.random() * 250)}.3`;
    expect((await submitAll(ip, 30)).every((answer) => answer.status === 201)).toBe(true);
    expect((await submit(ip)).status).toBe(429);
    // The hour ends (moved back rather than waited for).
    await db()
      .$executeRaw`UPDATE custom_request_counts SET hour = hour - interval '1 hour' WHERE client_ip = ${ip}`;
    expect((await submit(ip)).status).toBe(201);
    await runOrderMaintenance();
    const rows = await db().customRequestCount.findMany({ where: { clientIp: ip } });
    expect(rows.map((row) => row.count)).toEqual([1]);
  });
});
