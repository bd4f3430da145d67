// Admin sign-in, the shared token guard on every admin route, throttling and password change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signToken, createOwnDatabase } from "./admin-helpers";
import { call, callJson } from "../support/routes";

const database = await createOwnDatabase();
const { db, pool } = await import("@/lib/db");
const { default: bcrypt } = await import("bcryptjs");
// Cheap hashes for test accounts: what is under test is the flow, not bcrypt's cost.
const hashPassword = (password: string) => bcrypt.hash(password, 4);
const login = await import("@/app/api/admin/login/route");
const stats = await import("@/app/api/admin/stats/route");
const sales = await import("@/app/api/admin/sales/route");
const salesExport = await import("@/app/api/admin/sales/export/route");
const categories = await import("@/app/api/admin/categories/route");
const category = await import("@/app/api/admin/categories/[id]/route");
const categoryLeads = await import("@/app/api/admin/categories/[id]/leads/route");
const requests = await import("@/app/api/admin/requests/route");
const requestOne = await import("@/app/api/admin/requests/[id]/route");
const attachment = await import("@/app/api/admin/requests/[id]/attachments/[attachmentId]/route");
const requestsExport = await import("@/app/api/admin/requests/export/route");
const settings = await import("@/app/api/admin/settings/route");
const changePassword = await import("@/app/api/admin/change-password/route");

const EMAIL = "owner@example.com";
const PASSWORD = "first-password";
let admin: { id: string; passwordChangedAt: Date };

beforeAll(async () => {
  admin = await db().admin.create({
    data: { email: EMAIL, passwordHash: await hashPassword(PASSWORD) },
    select: { id: true, passwordChangedAt: true },
  });
});

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
  await database.drop();
});

const ID = "00000000-0000-4000-8000-000000000000";
const guarded: [string, (token?: string) => Promise<Response>][] = [
  ["GET stats", (token) => call(stats.GET, "/api/admin/stats", { token })],
  ["GET sales", (token) => call(sales.GET, "/api/admin/sales", { token })],
  ["GET sales export", (token) => call(salesExport.GET, "/api/admin/sales/export", { token })],
  ["GET categories", (token) => call(categories.GET, "/api/admin/categories", { token })],
  [
    "POST categories",
    (token) => call(categories.POST, "/api/admin/categories", { token, json: { title: "X" } }),
  ],
  [
    "PATCH category",
    (token) =>
      call(category.PATCH, "/x", { token, method: "PATCH", params: { id: ID }, json: { title: "Y" } }),
  ],
  [
    "DELETE category",
    (token) => call(category.DELETE, "/x", { token, method: "DELETE", params: { id: ID } }),
  ],
  [
    "POST category leads",
    (token) => call(categoryLeads.POST, "/x", { token, params: { id: ID }, body: new FormData() }),
  ],
  ["GET requests", (token) => call(requests.GET, "/api/admin/requests", { token })],
  [
    "PATCH request",
    (token) =>
      call(requestOne.PATCH, "/x", {
        token,
        method: "PATCH",
        params: { id: ID },
        json: { status: "completed" },
      }),
  ],
  ["GET attachment", (token) => call(attachment.GET, "/x", { token, params: { id: ID, attachmentId: ID } })],
  ["GET requests export", (token) => call(requestsExport.GET, "/api/admin/requests/export", { token })],
  ["GET settings", (token) => call(settings.GET, "/api/admin/settings", { token })],
  [
    "PATCH settings",
    (token) => call(settings.PATCH, "/x", { token, method: "PATCH", json: { enableNotifications: false } }),
  ],
  [
    "POST change-password",
    (token) =>
      call(changePassword.POST, "/x", {
        token,
        json: { currentPassword: PASSWORD, newPassword: "abcdefgh" },
      }),
  ],
];

function loginAs(email: string, password: string, ip: string) {
  return callJson<{ token?: string; message?: string }>(login.POST, "/api/admin/login", {
    json: { email, password },
    headers: { "x-forwarded-for": ip },
  });
}

describe("admin sign-in", () => {
  it("answers a token for the right credentials (email case-insensitive) that opens admin routes", async () => {
    const { status, body } = await loginAs("Owner@Example.com", PASSWORD, "10.0.0.1");
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(["token"]);
    const response = await call(stats.GET, "/api/admin/stats", { token: body.token });
    expect(response.status).toBe(200);
  });

  it("gives the same 401 answer for a wrong password and for an unknown email", async () => {
    const wrong = await loginAs(EMAIL, "not-the-password", "10.0.0.2");
    const unknown = await loginAs("nobody@example.com", PASSWORD, "10.0.0.2");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ success: false, message: "Invalid credentials" });
    expect(unknown.body).toEqual(wrong.body);
  });

  it("rejects malformed sign-in input with 400", async () => {
    for (const json of [{}, { email: "not-an-email", password: "x" }, { email: EMAIL, password: "" }]) {
      const { status } = await callJson(login.POST, "/api/admin/login", { json });
      expect(status, JSON.stringify(json)).toBe(400);
    }
    const notJson = await call(login.POST, "/api/admin/login", {
      body: "{",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);
  });

  it("throttles 5 failures per email with 429 and Retry-After, even for the right password", async () => {
    const email = "throttle@example.com";
    await db().admin.create({ data: { email, passwordHash: await hashPassword("right-one") } });
    for (let i = 0; i < 5; i++) {
      expect((await loginAs(email, `wrong-${i}`, `10.1.0.${i}`)).status).toBe(401);
    }
    const blocked = await loginAs(email, "right-one", "10.1.0.99");
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(blocked.body.message).toMatch(/Too many failed sign-in attempts/);
  });

  it("counts guesses made in parallel: only 5 are compared, the rest get 429", async () => {
    const email = "parallel@example.com";
    await db().admin.create({ data: { email, passwordHash: await hashPassword("right-one") } });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => loginAs(email, `guess-${i}`, `10.3.0.${i}`)),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
  });

  it("throttles 5 failures from one address across different emails", async () => {
    for (let i = 0; i < 5; i++) {
      const email = `someone${i}@example.com`;
      await db().admin.create({ data: { email, passwordHash: await hashPassword("right-one") } });
      expect((await loginAs(email, "x", "10.2.0.1")).status).toBe(401);
    }
    expect((await loginAs(EMAIL, PASSWORD, "10.2.0.1")).status).toBe(429);
    // Another address is unaffected.
    expect((await loginAs(EMAIL, PASSWORD, "10.2.0.2")).status).toBe(200);
  });
});

describe("the admin token guard", () => {
  it("refuses every admin route without a valid token", async () => {
    const foreign = await signToken(
      { sub: admin.id, pwv: admin.passwordChangedAt.getTime() },
      { secret: "another-secret-0123456789-0123456789-xyz" },
    );
    const expired = await signToken(
      { sub: admin.id, pwv: admin.passwordChangedAt.getTime() },
      { expiresAt: Math.floor(Date.now() / 1000) - 60 },
    );
    const wrongAudience = await signToken(
      { sub: admin.id, pwv: admin.passwordChangedAt.getTime() },
      { audience: "someone-else" },
    );
    const staleVersion = await signToken({ sub: admin.id, pwv: admin.passwordChangedAt.getTime() - 1000 });
    const unknownAdmin = await signToken({ sub: ID, pwv: admin.passwordChangedAt.getTime() });
    const unsigned = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(
      JSON.stringify({ sub: admin.id, pwv: admin.passwordChangedAt.getTime() }),
    ).toString("base64url")}.`;
    const bad: [string, string | undefined][] = [
      ["missing", undefined],
      ["malformed", "not-a-jwt"],
      ["foreign-signed", foreign],
      ["expired", expired],
      ["wrong audience", wrongAudience],
      ["older password version", staleVersion],
      ["unknown admin", unknownAdmin],
      ["alg none", unsigned],
    ];
    for (const [name, handler] of guarded) {
      for (const [kind, token] of bad) {
        const response = await handler(token);
        expect(response.status, `${name} with ${kind} token`).toBe(401);
        expect(await response.json()).toMatchObject({ success: false });
      }
    }
    // A non-bearer scheme is refused too.
    const basic = await call(stats.GET, "/api/admin/stats", { headers: { authorization: "Basic abc" } });
    expect(basic.status).toBe(401);
  });
});

describe("password change", () => {
  it("checks the current password and the new password's length", async () => {
    const token = (await loginAs(EMAIL, PASSWORD, "10.3.0.1")).body.token!;
    const wrong = await callJson(changePassword.POST, "/x", {
      token,
      json: { currentPassword: "nope", newPassword: "long-enough" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ errors: { currentPassword: "Current password is incorrect" } });
    const short = await callJson(changePassword.POST, "/x", {
      token,
      json: { currentPassword: PASSWORD, newPassword: "12345" },
    });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({
      errors: { newPassword: "New password must be at least 6 characters long" },
    });
  });

  it("voids every earlier token and answers a fresh one", async () => {
    const first = (await loginAs(EMAIL, PASSWORD, "10.3.0.2")).body.token!;
    const second = (await loginAs(EMAIL, PASSWORD, "10.3.0.3")).body.token!;
    const changed = await callJson<{ token: string }>(changePassword.POST, "/x", {
      token: first,
      json: { currentPassword: PASSWORD, newPassword: "second-password" },
    });
    expect(changed.status).toBe(200);
    expect((await call(stats.GET, "/x", { token: first })).status).toBe(401);
    expect((await call(stats.GET, "/x", { token: second })).status).toBe(401);
    expect((await call(stats.GET, "/x", { token: changed.body.token })).status).toBe(200);
    expect((await loginAs(EMAIL, PASSWORD, "10.3.0.4")).status).toBe(401);
    expect((await loginAs(EMAIL, "second-password", "10.3.0.5")).status).toBe(200);
  });
});
