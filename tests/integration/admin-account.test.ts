// The admin account from the command line: the start banner and `npm run admin:reset-password`.
import { afterAll, describe, expect, it } from "vitest";
import { createOwnDatabase } from "./admin-helpers";
import { call, callJson } from "../support/routes";

const database = await createOwnDatabase();
const { db, pool } = await import("@/lib/db");
const { ensureAdmin } = await import("@/lib/auth/password");
const { adminEmail, adminLoginBanner, resetAdminPassword } = await import("@/lib/auth/admin-account");
const { signAdminToken } = await import("@/lib/auth/session");
const login = await import("@/app/api/admin/login/route");
const stats = await import("@/app/api/admin/stats/route");

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
  await database.drop();
});

describe("adminLoginBanner", () => {
  it("shows a generated password only on the start that created the account", () => {
    expect(adminLoginBanner({ email: "admin@example.com", generatedPassword: "6YUjckbUotwN" })).toBe(
      "Admin login at /admin/login: admin@example.com / 6YUjckbUotwN (first-start password; change it in Settings)",
    );
    const later = adminLoginBanner({ email: "owner@example.com" });
    expect(later).toBe(
      "Admin login at /admin/login: owner@example.com (forgot the password? Run: npm run admin:reset-password)",
    );
  });
});

describe("resetAdminPassword", () => {
  it("refuses before an account exists and refuses short passwords", async () => {
    await expect(resetAdminPassword("long-enough")).rejects.toThrow(/No admin account exists/);
    expect(await adminEmail()).toBeNull();
    await ensureAdmin("Owner@Example.com", "first-password");
    await expect(resetAdminPassword("short")).rejects.toThrow(
      "New password must be at least 6 characters long",
    );
  });

  it("sets the new password, keeps the email and signs out every session", async () => {
    const before = await db().admin.findFirstOrThrow({ select: { id: true, passwordChangedAt: true } });
    const token = await signAdminToken(before);
    expect((await call(stats.GET, "/api/admin/stats", { token })).status).toBe(200);

    // The change time moves on by at least a millisecond (the token's precision).
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await resetAdminPassword("a-new-password")).toBe("owner@example.com");

    expect((await call(stats.GET, "/api/admin/stats", { token })).status).toBe(401);
    const old = await call(login.POST, "/api/admin/login", {
      json: { email: "owner@example.com", password: "first-password" },
    });
    expect(old.status).toBe(401);
    const fresh = await callJson<{ token: string }>(login.POST, "/api/admin/login", {
      json: { email: "owner@example.com", password: "a-new-password" },
    });
    expect(fresh.status).toBe(200);
    expect(fresh.body.token).toBeTruthy();
  });
});
