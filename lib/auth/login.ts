import "server-only";
import type { PoolClient } from "pg";
import { db, pool, withTransaction } from "@/lib/db";
import { AppError, badRequest } from "@/lib/api/errors";
import { hashPassword, signAdminToken, verifyPassword } from "@/lib/auth/session";

// Sign-in and password change. An unknown email and a wrong password get the same answer after
// the same amount of bcrypt work, and repeated failures are throttled per email and per client
// address. The attempts live in PostgreSQL so the limit holds across server instances.
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MINUTES = 15;

// A bcrypt hash (cost 12, like real ones) of a password nobody knows; compared when the email is
// unknown so that the answer takes as long as for a wrong password.
const DUMMY_HASH = "$2b$12$akys.q3eGmTuv8W0x9xO1uAqbtxqy9EooUVFmc4TOITbRFa2zMoh.";

const invalidCredentials = () => new AppError(401, "Invalid credentials");

// Namespace of this module's advisory locks (see lib/requests/store.ts for another).
const LOGIN_LOCK = 5_302;

/** Seconds until the caller may try again, or 0 when under the limit. */
async function retryAfterSeconds(client: PoolClient, email: string, ip: string): Promise<number> {
  const { rows } = await client.query<{ retry: string | null }>(
    `WITH recent AS (
       SELECT email, ip, created_at FROM login_attempts
       WHERE NOT success AND created_at > now() - make_interval(mins => $3::int)
         AND (email = $1 OR ip = $2)
     ), nth AS (
       SELECT (SELECT created_at FROM recent WHERE email = $1 ORDER BY created_at DESC OFFSET $4::int - 1 LIMIT 1) AS by_email,
              (SELECT created_at FROM recent WHERE ip = $2 ORDER BY created_at DESC OFFSET $4::int - 1 LIMIT 1) AS by_ip
     )
     SELECT ceil(extract(epoch FROM GREATEST(by_email, by_ip) + make_interval(mins => $3::int) - now()))::text AS retry
     FROM nth`,
    [email, ip, FAILURE_WINDOW_MINUTES, MAX_FAILURES],
  );
  const retry = Number(rows[0]?.retry ?? 0);
  return Number.isFinite(retry) && retry > 0 ? retry : 0;
}

/**
 * Checks the limit and, when under it, records this attempt as a failure before any password is
 * compared, in one transaction holding the email's and the address's locks. So concurrent guesses
 * cannot all pass the check during the slow bcrypt comparison: each one counts at once. Answers the
 * attempt's id, or the seconds to wait.
 */
function reserveAttempt(email: string, ip: string): Promise<{ id: string } | { retry: number }> {
  return withTransaction(async (client) => {
    // Always the email's lock first, then the address's: a fixed order cannot deadlock.
    await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [LOGIN_LOCK, `email:${email}`]);
    await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [LOGIN_LOCK, `ip:${ip}`]);
    const retry = await retryAfterSeconds(client, email, ip);
    if (retry > 0) return { retry };
    const { rows } = await client.query<{ id: string }>(
      "INSERT INTO login_attempts (email, ip, success) VALUES ($1, $2, false) RETURNING id",
      [email, ip],
    );
    return { id: rows[0].id };
  });
}

/** Checks the credentials and answers a fresh token, or throws 401 / 429. */
export async function login(emailInput: string, password: string, ip: string): Promise<string> {
  const email = emailInput.trim().toLowerCase();
  const attempt = await reserveAttempt(email, ip);
  if ("retry" in attempt) {
    const minutes = Math.ceil(attempt.retry / 60);
    throw new AppError(
      429,
      `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      undefined,
      { "Retry-After": String(attempt.retry) },
    );
  }
  const admin = await db().admin.findUnique({
    where: { email },
    select: { id: true, passwordHash: true, passwordChangedAt: true },
  });
  const matches = await verifyPassword(password, admin?.passwordHash ?? DUMMY_HASH);
  if (!admin || !matches) throw invalidCredentials();
  await pool().query("UPDATE login_attempts SET success = true WHERE id = $1", [attempt.id]);
  // Old attempts only matter for the window; keep the table small.
  await pool().query("DELETE FROM login_attempts WHERE created_at < now() - interval '1 day'");
  return signAdminToken(admin);
}

/**
 * Changes the password after checking the current one, which voids every token issued before;
 * answers a fresh token so the admin who made the change stays signed in.
 */
export async function changePassword(
  adminId: string,
  currentPassword: string,
  newPassword: string,
): Promise<string> {
  const admin = await db().admin.findUnique({
    where: { id: adminId },
    select: { passwordHash: true },
  });
  if (!admin || !(await verifyPassword(currentPassword, admin.passwordHash))) {
    throw badRequest("Current password is incorrect", { currentPassword: "Current password is incorrect" });
  }
  // Millisecond precision matches the column, so the token's version compares exactly.
  const changedAt = new Date();
  const updated = await db().admin.update({
    where: { id: adminId },
    data: { passwordHash: await hashPassword(newPassword), passwordChangedAt: changedAt },
    select: { id: true, passwordChangedAt: true },
  });
  return signAdminToken(updated);
}
