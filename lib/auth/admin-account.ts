import "server-only";
import { hashPassword } from "@/lib/auth/password";
import { db, type Tx } from "@/lib/db";
import { changePasswordSchema } from "@/lib/schemas/admin";

// The admin account as the command line sees it: the start script's login banner and
// `npm run admin:reset-password`.

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

/**
 * The admin's current login email (it can be changed in Settings), or null without an account.
 * Pass the transaction's `tx` when inside one.
 */
export async function adminEmail(tx: Tx = db()): Promise<string | null> {
  const admin = await tx.admin.findFirst({
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { email: true },
  });
  return admin?.email ?? null;
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
export async function resetAdminPassword(password: string): Promise<string> {
  const problem = passwordProblem(password);
  if (problem) throw new Error(problem);
  const email = await adminEmail();
  if (!email) throw new Error("No admin account exists yet: start the store once to create it.");
  await db().admin.update({
    where: { email },
    data: { passwordHash: await hashPassword(password), passwordChangedAt: new Date() },
    select: { id: true },
  });
  return email;
}
