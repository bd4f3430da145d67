// RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset on the limited endpoints' answers,
// success and refusal alike, and Retry-After on every 429: order create, Find my orders, unknown
// order keys and custom requests. Runs in its own database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromAddress } from "../support/client";
import { callJson } from "../support/routes";
import { startTestStore } from "../support/store";

const store = await startTestStore({
  name: "leadmarket_rate_limit_headers",
  apiKey: "np-rate-limit-key",
  ipnSecret: "ipn-rate-limit",
  env: { ORDER_CREATE_LIMIT: "2", CUSTOM_REQUEST_LIMIT: "2" },
});

const { POST: create } = await import("@/app/api/payment/create/route");
const { POST: lookup } = await import("@/app/api/orders/lookup/route");
const { GET: orderApi } = await import("@/app/api/orders/[key]/route");
const { POST: customRequest } = await import("@/app/api/custom-request/route");
const { GET: categories } = await import("@/app/api/categories/route");
const { pool } = await import("@/lib/db");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

let category: string;

beforeAll(async () => {
  category = await createCategoryWithLeads(pool(), { title: "Rate Limit Headers" }, 1200, 41);
});

afterAll(store.close);

type Limited = { status: number; headers: Headers };

/** The three headers as numbers; undefined when one is missing. */
function rateLimit({ headers }: Limited) {
  const read = (name: string) => (headers.has(name) ? Number(headers.get(name)) : undefined);
  return {
    limit: read("ratelimit-limit"),
    remaining: read("ratelimit-remaining"),
    reset: read("ratelimit-reset"),
  };
}

function expectRefused(answer: Limited, limit: number, windowSeconds: number) {
  expect(answer.status).toBe(429);
  const retryAfter = Number(answer.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(rateLimit(answer)).toEqual({ limit, remaining: 0, reset: retryAfter });
}

describe("POST /api/payment/create (ORDER_CREATE_LIMIT a 10-minute window)", () => {
  const order = (address: string) =>
    callJson(create, "/api/payment/create", {
      json: { categoryId: category, packageType: "starter" },
      headers: fromAddress(address),
    });

  it("counts down on each new order, then refuses with Retry-After equal to RateLimit-Reset", async () => {
    const first = await order("10.60.0.1");
    expect(first.status).toBe(200);
    const { reset } = rateLimit(first);
    expect(rateLimit(first)).toEqual({ limit: 2, remaining: 1, reset });
    expect(reset).toBeGreaterThan(590);
    expect(reset).toBeLessThanOrEqual(600);

    // Another browser from the same address: a new order.
    const second = await order("10.60.0.1");
    expect(second.status).toBe(200);
    expect(rateLimit(second).remaining).toBe(0);

    expectRefused(await order("10.60.0.1"), 2, 600);
  });
});

describe("POST /api/orders/lookup (10 an hour per address)", () => {
  it("sends the headers on every 202, then 429 with Retry-After", async () => {
    for (let index = 0; index < 10; index += 1) {
      const answer = await callJson(lookup, "/api/orders/lookup", {
        json: { email: `nobody-${index}@example.com` },
        headers: fromAddress("10.61.0.1"),
      });
      expect(answer.status).toBe(202);
      expect(rateLimit(answer).limit).toBe(10);
      expect(rateLimit(answer).remaining).toBe(9 - index);
      expect(rateLimit(answer).reset).toBeGreaterThan(3500);
    }
    const refused = await callJson(lookup, "/api/orders/lookup", {
      json: { email: "nobody-more@example.com" },
      headers: fromAddress("10.61.0.1"),
    });
    expectRefused(refused, 10, 3600);
  });
});

describe("GET /api/orders/{key} of an unknown key (30 unknown lookups per 10 minutes)", () => {
  it("answers 404 with the headers", async () => {
    const unknown = await callJson(orderApi, "/api/orders/nothing-here", {
      params: { key: "nothing-here" },
      headers: fromAddress("10.62.0.1"),
    });
    expect(unknown.status).toBe(404);
    expect(rateLimit(unknown)).toMatchObject({ limit: 30, remaining: 29 });
  });

  it("sends no headers where no limit was counted", async () => {
    const answer = await callJson(categories, "/api/categories");
    expect(answer.status).toBe(200);
    expect(rateLimit(answer)).toEqual({ limit: undefined, remaining: undefined, reset: undefined });
  });
});

describe("POST /api/custom-request (CUSTOM_REQUEST_LIMIT a clock hour)", () => {
  const submit = (index: number) =>
    callJson(customRequest, "/api/custom-request", {
      json: { name: "Header Tester", email: `headers-${index}@example.com`, platforms: ["linkedin"] },
      headers: fromAddress("10.63.0.1"),
    });

  it("counts down to the hour's end, then refuses with Retry-After equal to RateLimit-Reset", async () => {
    const hourLeft = 3600 - Math.floor((Date.now() / 1000) % 3600);
    for (let index = 0; index < 2; index += 1) {
      const answer = await submit(index);
      expect(answer.status).toBe(201);
      const { reset } = rateLimit(answer);
      expect(rateLimit(answer)).toEqual({ limit: 2, remaining: 1 - index, reset });
      expect(Math.abs(reset! - hourLeft)).toBeLessThan(5);
    }
    expectRefused(await submit(2), 2, 3600);
  });
});
