// The custom server's standing refusals (lib/http/standing-refusals.mjs): once a route refuses a
// client under a window limit that every request to its path is counted against, the server gives
// that refusal again itself until its Retry-After, each a second late, so a client that ignores
// Retry-After no longer costs Next.js's milliseconds and a database transaction a request, nor
// loops on the refusal. Here the handler answers the way Next.js does (headers set one by one and
// flushed before the body); the real route's marker is checked in
// tests/integration/query-budgets.test.ts and through the built server in tests/e2e/hardening.spec.ts.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, expect, it } from "vitest";
import {
  STANDING_REFUSAL_DELAY_MS,
  STANDING_REFUSAL_HEADER,
  standingRefusals,
} from "@/lib/http/standing-refusals.mjs";
import { startStandin, type Standin } from "../support/standin";

let server: Standin | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const REFUSAL = JSON.stringify({ success: false, message: "Too many checks from your address." });

/** Answers as a route would: /limited with a standing refusal, /busy with a plain 429, else 200. */
function route(request: IncomingMessage, response: ServerResponse, retryAfter: string): void {
  const path = (request.url ?? "/").split("?")[0];
  response.setHeader("content-type", "application/json");
  response.setHeader("x-frame-options", "DENY");
  if (path === "/limited" || path === "/busy") {
    response.statusCode = 429;
    response.setHeader("retry-after", retryAfter);
    if (path === "/limited") {
      response.setHeader("ratelimit-limit", "30");
      response.setHeader("ratelimit-remaining", "0");
      response.setHeader("ratelimit-reset", retryAfter);
      response.setHeader(STANDING_REFUSAL_HEADER, "1");
    }
    response.flushHeaders();
    response.write(REFUSAL.slice(0, 10));
    response.end(REFUSAL.slice(10));
    return;
  }
  response.end("{}");
}

/** A server as scripts/server.mjs wires it, the X-Forwarded-For header as the client's address. */
async function start(retryAfter = "60"): Promise<{ handled: () => number }> {
  const refusals = standingRefusals();
  let handled = 0;
  server = await startStandin((request, response) => {
    const address = String(request.headers["x-forwarded-for"]);
    if (refusals.answer(address, request, response)) return;
    refusals.watch(address, request, response);
    handled += 1;
    route(request, response, retryAfter);
  });
  return { handled: () => handled };
}

async function get(path: string, address: string) {
  const response = await fetch(`${server!.url}${path}`, { headers: { "x-forwarded-for": address } });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

async function post(path: string, address: string, contentType: string) {
  const response = await fetch(`${server!.url}${path}`, {
    method: "POST",
    headers: { "x-forwarded-for": address, "content-type": contentType },
    body: "x",
  });
  return { status: response.status, body: await response.text() };
}

it("gives a standing refusal again without the route, to the same address and path only", async () => {
  const { handled } = await start();
  const first = await get("/limited?facet=1", "192.0.2.1");
  expect(first.status).toBe(429);
  // The marker is the server's own: it never leaves.
  expect(first.headers.get(STANDING_REFUSAL_HEADER)).toBeNull();
  expect(handled()).toBe(1);

  // Another query on the same path: the same refusal, from the server alone.
  const again = await get("/limited?facet=2", "192.0.2.1");
  expect(handled()).toBe(1);
  expect(again.status).toBe(429);
  expect(again.body).toBe(REFUSAL);
  expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(Number(again.headers.get("retry-after"))).toBeLessThanOrEqual(60);
  expect(again.headers.get("ratelimit-limit")).toBe("30");
  expect(again.headers.get("ratelimit-remaining")).toBe("0");
  expect(again.headers.get("ratelimit-reset")).toBe(again.headers.get("retry-after"));
  expect(again.headers.get("x-frame-options")).toBe("DENY");
  expect(again.headers.get(STANDING_REFUSAL_HEADER)).toBeNull();

  // Another address, or another path, still reaches the route.
  await get("/limited", "192.0.2.2");
  await get("/other", "192.0.2.1");
  expect(handled()).toBe(3);
});

it("keeps no refusal the route did not mark as standing", async () => {
  const { handled } = await start();
  expect((await get("/busy", "192.0.2.1")).status).toBe(429);
  expect((await get("/busy", "192.0.2.1")).status).toBe(429);
  expect(handled()).toBe(2);
});

it("lets the address through again once the Retry-After has passed", async () => {
  const { handled } = await start("1");
  await get("/limited", "192.0.2.1");
  await get("/limited", "192.0.2.1");
  expect(handled()).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 1100));
  await get("/limited", "192.0.2.1");
  expect(handled()).toBe(2);
});

it("keeps a refusal for the body kind it was given to: a route may count uploads that JSON is not", async () => {
  const { handled } = await start();
  await post("/limited", "192.0.2.1", "multipart/form-data; boundary=a");
  // Another boundary is the same kind; the media type is read without case.
  expect((await post("/limited", "192.0.2.1", "Multipart/Form-Data; boundary=b")).body).toBe(REFUSAL);
  expect(handled()).toBe(1);
  // A JSON body, or none, reaches the route.
  await post("/limited", "192.0.2.1", "application/json");
  await get("/limited", "192.0.2.1");
  expect(handled()).toBe(3);
});

it("gives a refusal again only after STANDING_REFUSAL_DELAY_MS: a client asking at once cannot loop on it", async () => {
  const { handled } = await start();
  await get("/limited", "192.0.2.1");
  const started = performance.now();
  // A client that asks again at once, three connections at a time.
  const again = await Promise.all([1, 2, 3].map(() => get("/limited", "192.0.2.1")));
  expect(performance.now() - started).toBeGreaterThan(STANDING_REFUSAL_DELAY_MS - 50);
  expect(again.map((answer) => answer.body)).toEqual([REFUSAL, REFUSAL, REFUSAL]);
  expect(handled()).toBe(1);
});
