// The admin account as the command line sees it: the start script's login banner and
// `npm run admin:reset-password`. Plain pg and relative imports: these run outside Next.
import type { Pool } from "pg";
import { hashPassword } from "./password";
import { changePasswordSchema } from "../schemas/admin";

const RESET_COMMAND = "npm run admin:reset-password";

/**
 * What `npm start` prints about signing in. A generated password is shown only by the start that
 * created the account with it: after that the admin may have changed it, and repeating the old
 * one would only mislead.
 */
export function adminLoginBanner(admin: { email: string; generatedPassword?: string }): string {
  if (admin.generatedPassword) {
    return `Admin login at /admin/login: ${admin.email} / ${admin.generatedPassword} (first-start password; change it in Settings)`;
  }
  return `Admin login at /admin/login: ${admin.email} (forgot the password? Run: ${RESET_COMMAND})`;
}

/** The admin's current login email (it can be changed in Settings), or null without an account. */
export async function adminEmail(pool: Pool): Promise<string | null> {
  const { rows } = await pool.query<{ email: string }>(
    "SELECT email FROM admins ORDER BY created_at, id LIMIT 1",
  );
  return rows[0]?.email ?? null;
}

/** Why a new password is refused (the Settings tab's rules), or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  const parsed = changePasswordSchema.shape.newPassword.safeParse(password);
  return parsed.success ? null : parsed.error.issues[0].message;
}

/**
 * Sets the admin's password and moves its change time on, which signs out every session: tokens
 * carry the change time they were issued under. Returns the account's email.
 */
export async function resetAdminPassword(pool: Pool, password: string): Promise<string> {
  const problem = passwordProblem(password);
  if (problem) throw new Error(problem);
  const email = await adminEmail(pool);
  if (!email) throw new Error("No admin account exists yet: start the store once to create it.");
  await pool.query(
    "UPDATE admins SET password_hash = $1, password_changed_at = now(), updated_at = now() WHERE email = $2",
    [await hashPassword(password), email],
  );
  return email;
}
