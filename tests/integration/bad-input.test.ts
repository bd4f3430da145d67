// Hostile and malformed input on every API route: each answer is a clear 4xx (or a success), never
// a 500. Admin routes are called with a valid token, so the input itself is what gets judged.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/database";
import { call } from "../support/routes";

const database = await createTestDatabase("leadmarket_bad_input");
Object.assign(process.env, {
  DATABASE_URL: database.url,
  PAYMENTS_TEST_MODE: "1",
  NOWPAYMENTS_IPN_SECRET: "s",
});

type Handler = Parameters<typeof call>[0];
const routes: Record<string, Record<string, unknown>> = {
  "/api/categories": await import("@/app/api/categories/route"),
  "/api/categories/[id]": await import("@/app/api/categories/[id]/route"),
  "/api/categories/[id]/segment": await import("@/app/api/categories/[id]/segment/route"),
  "/api/leads": await import("@/app/api/leads/route"),
  "/api/leads/[id]": await import("@/app/api/leads/[id]/route"),
  "/api/leads/filter": await import("@/app/api/leads/filter/route"),
  "/api/leads/download/[key]": await import("@/app/api/leads/download/[key]/route"),
  "/api/custom-request": await import("@/app/api/custom-request/route"),
  "/api/payment/create": await import("@/app/api/payment/create/route"),
  "/api/payment/status/[id]": await import("@/app/api/payment/status/[id]/route"),
  "/api/payment/ipn": await import("@/app/api/payment/ipn/route"),
  "/api/payment/test/[id]": await import("@/app/api/payment/test/[id]/route"),
  "/api/admin/login": await import("@/app/api/admin/login/route"),
  "/api/admin/change-password": await import("@/app/api/admin/change-password/route"),
  "/api/admin/stats": await import("@/app/api/admin/stats/route"),
  "/api/admin/sales": await import("@/app/api/admin/sales/route"),
  "/api/admin/sales/export": await import("@/app/api/admin/sales/export/route"),
  "/api/admin/categories": await import("@/app/api/admin/categories/route"),
  "/api/admin/categories/[id]": await import("@/app/api/admin/categories/[id]/route"),
  "/api/admin/categories/[id]/leads": await import("@/app/api/admin/categories/[id]/leads/route"),
  "/api/admin/categories/[id]/quarantine/claims":
    await import("@/app/api/admin/categories/[id]/quarantine/claims/route"),
  "/api/admin/requests": await import("@/app/api/admin/requests/route"),
  "/api/admin/requests/[id]": await import("@/app/api/admin/requests/[id]/route"),
  "/api/admin/requests/[id]/attachments/[attachmentId]":
    await import("@/app/api/admin/requests/[id]/attachments/[attachmentId]/route"),
  "/api/admin/requests/export": await import("@/app/api/admin/requests/export/route"),
  "/api/admin/settings": await import("@/app/api/admin/settings/route"),
  "/api/admin/sales/[id]": await import("@/app/api/admin/sales/[id]/route"),
  "/api/admin/sales/[id]/recheck": await import("@/app/api/admin/sales/[id]/recheck/route"),
  "/api/admin/sales/[id]/resend-receipt": await import("@/app/api/admin/sales/[id]/resend-receipt/route"),
  "/api/orders/[key]": await import("@/app/api/orders/[key]/route"),
  "/api/orders/[key]/cancel": await import("@/app/api/orders/[key]/cancel/route"),
  "/api/orders/lookup": await import("@/app/api/orders/lookup/route"),
  "/api/suppression-lists/[id]/availability":
    await import("@/app/api/suppression-lists/[id]/availability/route"),
};
const { db, pool } = await import("@/lib/db");
const { signAdminToken } = await import("@/lib/auth/session");

const ODD_IDS = [
  "x",
  "../../etc/passwd",
  "%00",
  "0",
  "-1",
  "1e309",
  "9".repeat(400),
  "名前",
  "' OR 1=1 --",
  " ",
];
const ODD_BODIES: (string | undefined)[] = [
  "",
  "{",
  "null",
  "[]",
  '"text"',
  "42",
  '{"__proto__":{"admin":true}}',
  JSON.stringify({
    email: 1,
    password: [],
    title: {},
    status: "deleted",
    packageType: "gold",
    categoryId: "x",
  }),
  JSON.stringify({ name: "a".repeat(100_000), email: "b".repeat(5_000) }),
  "\u0000\u0001binary",
  // Valid shapes with NUL in the text that would be stored (PostgreSQL refuses NUL in text).
  JSON.stringify({
    name: "Nul Tester",
    email: "nul@example.com",
    message: "a\u0000b",
    title: "T\u0000",
    description: "\u0000",
  }),
];
const ODD_QUERIES = [
  "?page=-1&pageSize=1e9",
  "?category=&format=pdf",
  "?page=abc&order=sideways",
  "?%zz=1",
  // Every key twice: a list's values join, a one-value parameter's fail their schema.
  "?page=1&page=2&pageSize=5&pageSize=&format=csv&format=xlsx&NP_id=a&NP_id=b&location=USA&location=UK" +
    "&region=CA&region=ZZ&categoryId=00000000-0000-4000-8000-000000000000&categoryId=x&order=asc&order=desc",
];

let token: string;

beforeAll(async () => {
  const admin = await db().admin.create({
    data: {
      email: "bad-input@example.com",
      passwordHash: "$2b$04$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva",
    },
    select: { id: true, passwordChangedAt: true },
  });
  token = await signAdminToken(admin);
});

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
  await database.drop();
});

function paramsFor(path: string, value: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const match of path.matchAll(/\[(\w+)\]/g)) params[match[1]] = value;
  return params;
}

describe("bad input never causes a server error", () => {
  for (const [path, handlers] of Object.entries(routes)) {
    for (const [method, handler] of Object.entries(handlers)) {
      if (typeof handler !== "function") continue;
      it(`${method} ${path}`, async () => {
        const seen: string[] = [];
        const attempts: Promise<void>[] = [];
        const ids = path.includes("[") ? ODD_IDS : ["-"];
        for (const id of ids) {
          const bodies = method === "GET" ? [undefined] : ODD_BODIES;
          for (const body of bodies) {
            for (const query of method === "GET" ? ODD_QUERIES : [""]) {
              for (const contentType of [
                "application/json",
                "multipart/form-data; boundary=x",
                "text/plain",
              ]) {
                if (method === "GET" && contentType !== "application/json") continue;
                attempts.push(
                  call(handler as Handler, path.replace(/\[\w+\]/g, encodeURIComponent(id)) + query, {
                    method,
                    params: paramsFor(path, id),
                    body,
                    headers: { "content-type": contentType, "x-nowpayments-sig": "abc" },
                    token,
                  }).then(async (response) => {
                    // 503 with Retry-After is the documented "busy" answer (uploads beyond the
                    // concurrent cap, fired here all at once), not a failure.
                    const busy = response.status === 503 && response.headers.has("retry-after");
                    if (response.status >= 500 && !busy) {
                      seen.push(
                        `${response.status} for id=${id.slice(0, 20)} body=${String(body).slice(0, 40)} ${contentType}: ${(await response.text()).slice(0, 200)}`,
                      );
                    } else {
                      await response.body?.cancel();
                    }
                  }),
                );
              }
            }
          }
        }
        await Promise.all(attempts);
        expect(seen).toEqual([]);
      });
    }
  }
});
