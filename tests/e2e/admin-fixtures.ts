// Browser-test helpers for the admin back-office: a database handle on the e2e database, tokens
// signed exactly like lib/auth/session.ts (so most tests skip the login form), and row factories.
import { test as base, expect, type Page } from "@playwright/test";
import bcrypt from "bcryptjs";
import { SignJWT } from "jose";
import { Pool } from "pg";

export { expect };

let pool: Pool | undefined;
export function e2eDb(): Pool {
  pool ??= new Pool({ connectionString: process.env.E2E_DATABASE_URL, max: 2 });
  return pool;
}

/** Closes the shared handle; a later spec file in the same worker opens a new one. */
export async function closeE2eDb(): Promise<void> {
  const open = pool;
  pool = undefined;
  await open?.end();
}

export type E2EAdmin = { id: string; email: string; passwordChangedAt: Date };

export async function findAdmin(email: string): Promise<E2EAdmin> {
  const { rows } = await e2eDb().query(
    'SELECT id, email, password_changed_at AS "passwordChangedAt" FROM admins WHERE email = $1',
    [email],
  );
  if (!rows[0]) throw new Error(`No admin ${email} in the e2e database`);
  return rows[0];
}

/** A second admin account, for flows that change the password or email (the main one stays intact). */
export async function createAdmin(email: string, password: string): Promise<E2EAdmin> {
  const { rows } = await e2eDb().query(
    `INSERT INTO admins (email, password_hash) VALUES ($1, $2)
     RETURNING id, email, password_changed_at AS "passwordChangedAt"`,
    [email, await bcrypt.hash(password, 4)],
  );
  return rows[0];
}

export function signToken(admin: E2EAdmin): Promise<string> {
  return new SignJWT({ pwv: new Date(admin.passwordChangedAt).getTime() })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(admin.id)
    .setIssuer("leadmarket")
    .setAudience("leadmarket-admin")
    .setIssuedAt()
    .setExpirationTime("12h")
    .sign(new TextEncoder().encode(process.env.E2E_APP_SECRET));
}

/** Plants the token in local storage the way the login page does, then opens the dashboard. */
export async function openDashboard(page: Page, token: string, tab?: string): Promise<void> {
  await page.goto("/admin/login");
  await page.evaluate((value) => window.localStorage.setItem("adminToken", value), token);
  await page.goto(tab ? `/admin/dashboard?tab=${tab}` : "/admin/dashboard");
}

export const E2E_ADMIN_EMAIL = "admin@example.com";
export const E2E_ADMIN_PASSWORD = "e2e-admin-password";

/** Collects Content-Security-Policy violations reported in the page's console. */
export function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text()))
      violations.push(message.text());
  });
  return violations;
}

export const test = base.extend<{ adminToken: string }>({
  adminToken: async ({}, provide) => {
    await provide(await signToken(await findAdmin(E2E_ADMIN_EMAIL)));
  },
});
