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
  it("accepts 3 requests a clock hour from one address, then answers 429 with Retry-After", async () => {
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
    // Until the clock hour ends.
    const retryAfter = Number(refused.headers.get("retry-after"));
    const hourLeft = 3600 - ((Date.now() / 1000) % 3600);
    expect(Math.abs(retryAfter - hourLeft)).toBeLessThan(5);
    expect(await db().customRequest.count({ where: { clientIp: ip } })).toBe(3);

    // Another address is not affected.
    expect((await submit({ "x-forwarded-for": "203.0.113.11" })).status).toBe(201);
  });

  it("frees the slots when the clock hour ends", async () => {
    const ip = "203.0.113.20";
    for (let index = 0; index < 3; index += 1) {
      expect((await submit({ "x-forwarded-for": ip })).status).toBe(201);
    }
    expect((await submit({ "x-forwarded-for": ip })).status).toBe(429);
    // The hour ends (moved back rather than waited for).
    await db()
      .$executeRaw`UPDATE custom_request_counts SET hour = hour - interval '1 hour' WHERE client_ip = ${ip}`;
    expect((await submit({ "x-forwarded-for": ip })).status).toBe(201);
  });

  it("cannot be outrun by concurrent submissions from one address", async () => {
    const ip = "203.0.113.30";
    const answers = await Promise.all(Array.from({ length: 12 }, () => submit({ "x-forwarded-for": ip })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 201 || status === 429)).toBe(true);
    expect(statuses.filter((status) => status === 201).length).toBe(3);
    expect(await db().customRequest.count({ where: { clientIp: ip } })).toBe(3);
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
    }, 10_000);
  });
});
