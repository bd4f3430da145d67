// The per-address hourly limit (CUSTOM_REQUEST_LIMIT) and mail without SMTP configured.
import { afterAll, describe, expect, it, vi } from "vitest";
import { callJson } from "../support/routes";

process.env.CUSTOM_REQUEST_LIMIT = "3";
delete process.env.SMTP_URL;

// Mail goes to the log here: keep the test output quiet and read the log from the spy instead.
const info = vi.spyOn(console, "info").mockImplementation(() => undefined);

const { POST } = await import("@/app/api/custom-request/route");
const { db, pool } = await import("@/lib/db");

afterAll(async () => {
  info.mockRestore();
  await db().$disconnect();
  await pool().end();
});

type Answer = { success: boolean; _id?: string; message?: string };
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
let counter = 0;

function submit(headers: Record<string, string>) {
  const email = `limits-${run}-${++counter}@example.com`;
  return callJson<Answer>(POST, "/api/custom-request", {
    json: { name: "Limit Tester", email, platforms: ["linkedin"] },
    headers,
  });
}

describe("per-address rate limit", () => {
  it("accepts 3 requests an hour from one address, then answers 429 with Retry-After", async () => {
    const ip = "203.0.113.10";
    // The proxy appends the address it saw; what the client put before it does not count.
    for (let index = 0; index < 3; index += 1) {
      expect((await submit({ "x-forwarded-for": `198.51.100.${index}, ${ip}` })).status).toBe(201);
    }
    const refused = await submit({ "x-forwarded-for": `198.51.100.99, ${ip}` });
    expect(refused.status).toBe(429);
    expect(refused.body.success).toBe(false);
    expect(refused.body.message).toMatch(
      /^Too many requests from your address: at most 3 custom requests per hour/,
    );
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await db().customRequest.count({ where: { clientIp: ip } })).toBe(3);

    // Another address is not affected.
    expect((await submit({ "x-forwarded-for": "203.0.113.11" })).status).toBe(201);
  });

  it("frees a slot when the oldest request leaves the hour", async () => {
    const ip = "203.0.113.20";
    for (let index = 0; index < 3; index += 1) {
      expect((await submit({ "x-forwarded-for": ip })).status).toBe(201);
    }
    expect((await submit({ "x-forwarded-for": ip })).status).toBe(429);

    const oldest = await db().customRequest.findFirstOrThrow({
      where: { clientIp: ip },
      orderBy: { createdAt: "asc" },
    });
    await db().customRequest.update({
      where: { id: oldest.id },
      data: { createdAt: new Date(Date.now() - 61 * 60 * 1000) },
    });
    expect((await submit({ "x-forwarded-for": ip })).status).toBe(201);
  });

  it("cannot be outrun by concurrent submissions from one address", async () => {
    const ip = "203.0.113.30";
    const answers = await Promise.all(Array.from({ length: 12 }, () => submit({ "x-forwarded-for": ip })));
    const statuses = answers.map((answer) => answer.status);
    // A submission that finds another one of its address being stored is refused (429) rather
    // than left waiting on the lock with a database connection.
    expect(statuses.every((status) => status === 201 || status === 429)).toBe(true);
    const accepted = statuses.filter((status) => status === 201).length;
    expect(accepted).toBeGreaterThanOrEqual(1);
    expect(accepted).toBeLessThanOrEqual(3);
    expect(await db().customRequest.count({ where: { clientIp: ip } })).toBe(accepted);
  });
});

describe("mail without SMTP_URL", () => {
  it("names both mails in the log instead of dropping them, without their bodies", async () => {
    const { status } = await submit({ "x-forwarded-for": "203.0.113.40" });
    expect(status).toBe(201);
    await vi.waitFor(() => {
      const logged = info.mock.calls.map((args) => String(args[0]));
      expect(
        logged.some((line) => line.includes(`SMTP_URL is not set; not sent. To: limits-${run}-${counter}@`)),
      ).toBe(true);
      // A body can hold a download key or a sign-in link: only the recipient and subject are logged.
      const mailLines = logged.filter((line) => line.startsWith("[mail]"));
      expect(mailLines.every((line) => !line.includes("\n"))).toBe(true);
    });
  });
});
