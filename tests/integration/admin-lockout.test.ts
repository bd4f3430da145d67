// Sign-in abuse without a login: others' failures cannot lock the admin out of a device that
// signed in before, blank passwords are refused, wrong current passwords on a password change are
// throttled, the admin hears about a guessing campaign, and a burst of sign-ins does not stall
// the public site.
import { afterAll, describe, expect, it } from "vitest";
import { createOwnDatabase } from "./admin-helpers";
import { callJson } from "../support/routes";

const database = await createOwnDatabase();
const { db, pool } = await import("@/lib/db");
const { default: bcrypt } = await import("bcryptjs");
const login = await import("@/app/api/admin/login/route");
const changePassword = await import("@/app/api/admin/change-password/route");
const categories = await import("@/app/api/categories/route");
const { ALERT_ATTEMPTS } = await import("@/lib/auth/login");

const PASSWORD = "the-right-password";

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
  await database.drop();
});

async function createAdmin(label: string): Promise<string> {
  const email = `${label}-${Date.now().toString(36)}@example.com`;
  // Cheap hashes: the flow is under test here, not bcrypt's cost.
  await db().admin.create({ data: { email, passwordHash: await bcrypt.hash(PASSWORD, 4) } });
  return email;
}

type Answer = { token?: string; message?: string; errors?: Record<string, string> };

function signIn(email: string, password: string, ip: string, cookie?: string) {
  return callJson<Answer>(login.POST, "/api/admin/login", {
    json: { email, password },
    headers: { "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) },
  });
}

/** The `name=value` part of the device cookie the answer sets. */
function deviceCookieOf(headers: Headers): string {
  const cookie = headers.get("set-cookie") ?? "";
  expect(cookie).toMatch(/^lm_admin_device=[^;]+; Path=\/api\/admin; Max-Age=\d+; HttpOnly; SameSite=Strict/);
  return cookie.split(";")[0];
}

describe("admin lock-out", () => {
  it("lets the admin in from a device that signed in before, while others' failures lock the email", async () => {
    const email = await createAdmin("owner");
    const first = await signIn(email, PASSWORD, "10.20.0.1");
    expect(first.status).toBe(200);
    const cookie = deviceCookieOf(first.headers);

    // The reproduction: 4 wrong passwords from one address and one from another.
    for (let index = 0; index < 4; index += 1) {
      expect((await signIn(email, `wrong-${index}`, "10.20.0.66")).status).toBe(401);
    }
    expect((await signIn(email, "wrong-last", "10.20.0.77")).status).toBe(401);

    // The product's rule still holds for a browser without the cookie...
    expect((await signIn(email, PASSWORD, "10.20.0.2")).status).toBe(429);
    expect((await signIn(email, PASSWORD, "10.20.0.1")).status).toBe(429);
    // ...but the admin's own device signs in.
    const again = await signIn(email, PASSWORD, "10.20.0.1", cookie);
    expect(again.status).toBe(200);
    expect(again.body.token).toBeTruthy();
  });

  it("still locks a known device after its own 5 failures, and trusts no cookie for another email", async () => {
    const email = await createAdmin("device");
    const other = await createAdmin("other");
    const cookie = deviceCookieOf((await signIn(email, PASSWORD, "10.21.0.1")).headers);
    for (let index = 0; index < 5; index += 1) {
      expect((await signIn(email, `wrong-${index}`, `10.21.1.${index}`, cookie)).status).toBe(401);
    }
    expect((await signIn(email, PASSWORD, "10.21.0.1", cookie)).status).toBe(429);

    for (let index = 0; index < 5; index += 1) {
      expect((await signIn(other, `wrong-${index}`, `10.21.2.${index}`)).status).toBe(401);
    }
    // The first admin's cookie means nothing for the second email, nor does a forged one.
    expect((await signIn(other, PASSWORD, "10.21.0.1", cookie)).status).toBe(429);
    expect((await signIn(other, PASSWORD, "10.21.0.1", "lm_admin_device=forged.token.value")).status).toBe(
      429,
    );
  });

  it("refuses a password of spaces alone with 400, before any comparison", async () => {
    const email = await createAdmin("blank");
    const blank = await signIn(email, "     ", "10.22.0.1");
    expect(blank.status).toBe(400);
    expect(blank.body.errors?.password).toBe("Password is required");
    const token = (await signIn(email, PASSWORD, "10.22.0.2")).body.token!;
    const change = await callJson<Answer>(changePassword.POST, "/api/admin/change-password", {
      token,
      json: { currentPassword: PASSWORD, newPassword: "        " },
      headers: { "x-forwarded-for": "10.22.0.2" },
    });
    expect(change.status).toBe(400);
    expect(change.body.errors?.newPassword).toBe("New password must not be only spaces");
    expect(await db().loginAttempt.count({ where: { email, success: false } })).toBe(0);
  });

  it("throttles wrong current passwords on a password change like sign-in failures", async () => {
    const email = await createAdmin("change");
    const token = (await signIn(email, PASSWORD, "10.23.0.1")).body.token!;
    const change = (currentPassword: string) =>
      callJson<Answer>(changePassword.POST, "/api/admin/change-password", {
        token,
        json: { currentPassword, newPassword: "a-new-password" },
        headers: { "x-forwarded-for": "10.23.0.9" },
      });
    for (let index = 0; index < 5; index += 1) expect((await change(`guess-${index}`)).status).toBe(400);
    const blocked = await change(PASSWORD);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
  });

  it("mails the admin once when failures for their email from many addresses pass the higher bar", async () => {
    const email = await createAdmin("alert");
    for (let index = 0; index < ALERT_ATTEMPTS + 5; index += 1) {
      const { status } = await signIn(email, `guess-${index}`, `10.24.${index % 7}.${index}`);
      expect([401, 429]).toContain(status);
    }
    const alerts = await db().mailOutbox.findMany({ where: { kind: "sign-in-alert", recipient: email } });
    expect(alerts).toHaveLength(1);
    expect((alerts[0].mail as { subject: string }).subject).toBe(
      "Unusual sign-in activity on your LeadMarket admin account",
    );
  });
});

describe("password checks under a burst", () => {
  it("keeps /api/categories answering while 50 failed sign-ins are checked", async () => {
    await callJson(categories.GET, "/api/categories");
    const idle = performance.now();
    expect((await callJson(categories.GET, "/api/categories")).status).toBe(200);
    const idleMs = performance.now() - idle;

    const burst = Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        signIn(`nobody-${index}@burst.example`, "wrong-password", `10.30.0.${index}`),
      ),
    );
    let done = false;
    void burst.then(() => (done = true));
    const timings: number[] = [];
    while (!done) {
      const started = performance.now();
      expect((await callJson(categories.GET, "/api/categories")).status).toBe(200);
      timings.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const answers = await burst;
    // Each is a 401 once compared, or a 503 with Retry-After when the queue was full: never stuck.
    for (const answer of answers) {
      expect([401, 503]).toContain(answer.status);
      if (answer.status === 503) expect(answer.headers.get("retry-after")).toBe("5");
    }
    const worst = Math.max(...timings);
    const median = timings.sort((a, b) => a - b)[Math.floor(timings.length / 2)];
    console.info(
      `[burst] /api/categories idle ${idleMs.toFixed(0)} ms; during 50 failed sign-ins median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms over ${timings.length} calls`,
    );
    // The typical call, not the worst: on a shared machine one call may meet a pause from elsewhere
    // (it did, at 1.1 s among 140 calls of 5 ms), while checks on the main thread would slow most.
    expect(timings.length).toBeGreaterThan(10);
    expect(median).toBeLessThan(250);
  }, 120_000);
});
