import "server-only";
import { db, transaction, type Tx } from "@/lib/db";
import { AppError, badRequest, minutesText, tooManyRequests } from "@/lib/errors";
import { deviceCookie, trustedDevice } from "@/lib/auth/device";
import type { Cookie } from "@/lib/cookie";
import { assertPasswordCheckAvailable } from "@/lib/auth/password";
import { hashPassword, signAdminToken, verifyPassword } from "@/lib/auth/session";
import { countRecentMails, queueMail } from "@/lib/mail/outbox";
import { env } from "@/lib/env";

// Sign-in and password change. An unknown email and a wrong password get the same answer after
// the same amount of bcrypt work, and repeated failures are throttled: per email and per client
// address, except for a browser holding a device cookie for the email (lib/auth/device.ts), which
// only its own failures can lock. Wrong current passwords on a password change count the same way.
// The attempts live in PostgreSQL so the limits hold across server instances.
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MINUTES = 15;
// Failed or refused attempts for one admin email, from at least ALERT_ADDRESSES addresses within
// the window, after which the admin is mailed (at most once a day).
export const ALERT_ATTEMPTS = 25;
export const ALERT_ADDRESSES = 3;
const ALERT_KIND = "sign-in-alert";

// A bcrypt hash (cost 12, like real ones) of a password nobody knows; compared when the email is
// unknown so that the answer takes as long as for a wrong password.
const DUMMY_HASH = "$2b$12$akys.q3eGmTuv8W0x9xO1uAqbtxqy9EooUVFmc4TOITbRFa2zMoh.";

const invalidCredentials = () => new AppError(401, "Invalid credentials");

// Namespace of this module's advisory locks (see lib/custom-requests/store.ts for another).
const LOGIN_LOCK = 5_302;

/** Who is trying: their address, and the device id when they hold a valid cookie for the email. */
type AttemptOrigin = { ip: string; device: string | null };

/** Seconds until the caller may try again, or 0 when under the limit. */
async function retryAfterSeconds(tx: Tx, email: string, origin: AttemptOrigin): Promise<number> {
  // The MAX_FAILURES-th latest failure in the window decides when the window lets the caller in.
  const rows = origin.device
    ? await tx.$queryRaw<{ retry: string | null }[]>`
        SELECT ceil(extract(epoch FROM created_at + make_interval(mins => ${FAILURE_WINDOW_MINUTES}::int) - now()))::text AS retry
          FROM login_attempts
         WHERE device = ${origin.device} AND NOT success AND NOT throttled
           AND created_at > now() - make_interval(mins => ${FAILURE_WINDOW_MINUTES}::int)
         ORDER BY created_at DESC OFFSET ${MAX_FAILURES}::int - 1 LIMIT 1`
    : await tx.$queryRaw<{ retry: string | null }[]>`
        WITH recent AS (
          SELECT email, ip, created_at FROM login_attempts
          WHERE NOT success AND NOT throttled
            AND created_at > now() - make_interval(mins => ${FAILURE_WINDOW_MINUTES}::int)
            AND (email = ${email} OR ip = ${origin.ip})
        ), nth AS (
          SELECT (SELECT created_at FROM recent WHERE email = ${email}
                   ORDER BY created_at DESC OFFSET ${MAX_FAILURES}::int - 1 LIMIT 1) AS by_email,
                 (SELECT created_at FROM recent WHERE ip = ${origin.ip}
                   ORDER BY created_at DESC OFFSET ${MAX_FAILURES}::int - 1 LIMIT 1) AS by_ip
        )
        SELECT ceil(extract(epoch FROM GREATEST(by_email, by_ip) + make_interval(mins => ${FAILURE_WINDOW_MINUTES}::int) - now()))::text AS retry
        FROM nth`;
  const retry = Number(rows[0]?.retry ?? 0);
  return Number.isFinite(retry) && retry > 0 ? retry : 0;
}

/**
 * Mails the admin whose email is being guessed from many addresses, once the failed and refused
 * attempts pass ALERT_ATTEMPTS; at most once a day. Runs under the email's lock, so concurrent
 * attempts cannot both decide to send.
 */
async function alertWhenUnderAttack(tx: Tx, email: string): Promise<void> {
  const [{ attempts, addresses, admin }] = await tx.$queryRaw<
    { attempts: number; addresses: number; admin: boolean }[]
  >`
    SELECT count(*)::int AS attempts, count(DISTINCT ip)::int AS addresses,
           EXISTS (SELECT 1 FROM admins WHERE email = ${email}) AS admin
      FROM login_attempts
     WHERE email = ${email} AND NOT success
       AND created_at > now() - make_interval(mins => ${FAILURE_WINDOW_MINUTES}::int)`;
  if (!admin || attempts < ALERT_ATTEMPTS || addresses < ALERT_ADDRESSES) return;
  if ((await countRecentMails(ALERT_KIND, email, tx)) > 0) return;
  await queueMail(
    {
      to: email,
      subject: "Unusual sign-in activity on your LeadMarket admin account",
      text: [
        `In the last ${FAILURE_WINDOW_MINUTES} minutes there were ${attempts} failed sign-in attempts for this admin account from ${addresses} different addresses.`,
        "",
        "Sign-in from a browser you have signed in with before is not blocked by them.",
        "If you do not recognise this activity, make sure your password is long and unique, and change it in the dashboard's Settings.",
        "",
        `Admin sign-in: ${env().PUBLIC_BASE_URL}/admin/login`,
      ].join("\n"),
    },
    tx,
    ALERT_KIND,
  );
}

/**
 * Checks the limit and, when under it, records this attempt as a failure before any password is
 * compared, in one transaction holding the email's and the caller's locks. So concurrent guesses
 * cannot all pass the check during the slow bcrypt comparison: each one counts at once. A refused
 * attempt is recorded too (for the admin's alert, not for the lock). Answers the attempt's id, or
 * the seconds to wait.
 */
function reserveAttempt(email: string, origin: AttemptOrigin): Promise<{ id: bigint } | { retry: number }> {
  return transaction(async (tx) => {
    // Always the email's lock first, then the caller's: a fixed order cannot deadlock.
    const callerKey = origin.device ? `device:${origin.device}` : `ip:${origin.ip}`;
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOGIN_LOCK}::int, hashtext(${`email:${email}`}))`;
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOGIN_LOCK}::int, hashtext(${callerKey}))`;
    const retry = await retryAfterSeconds(tx, email, origin);
    const attempt = await tx.loginAttempt.create({
      data: { email, ip: origin.ip, device: origin.device, success: false, throttled: retry > 0 },
      select: { id: true },
    });
    await alertWhenUnderAttack(tx, email);
    return retry > 0 ? { retry } : { id: attempt.id };
  });
}

function tooManyAttempts(retry: number): AppError {
  return tooManyRequests(`Too many failed sign-in attempts. Try again in ${minutesText(retry)}.`, retry);
}

async function markSucceeded(attemptId: bigint): Promise<void> {
  await db().loginAttempt.update({ where: { id: attemptId }, data: { success: true }, select: { id: true } });
}

/** Drops attempts older than a day: they only matter for the window (and a day of alerts). */
export async function pruneLoginAttempts(): Promise<void> {
  await db().loginAttempt.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - 86_400_000) } } });
}

/**
 * Checks the credentials and answers a fresh token with the device cookie to set, or throws
 * 401 / 429. `cookie` is the device cookie the browser sent, if any.
 */
export async function login(
  emailInput: string,
  password: string,
  ip: string,
  cookie: string | undefined,
): Promise<{ token: string; deviceCookie: Cookie }> {
  const email = emailInput.trim().toLowerCase();
  assertPasswordCheckAvailable();
  const device = await trustedDevice(cookie, email);
  const attempt = await reserveAttempt(email, { ip, device });
  if ("retry" in attempt) throw tooManyAttempts(attempt.retry);
  const admin = await db().admin.findUnique({
    where: { email },
    select: { id: true, passwordHash: true, passwordChangedAt: true },
  });
  const matches = await verifyPassword(password, admin?.passwordHash ?? DUMMY_HASH);
  if (!admin || !matches) throw invalidCredentials();
  await markSucceeded(attempt.id);
  return { token: await signAdminToken(admin), deviceCookie: await deviceCookie(email, device) };
}

/**
 * Changes the password after checking the current one, which voids every token issued before;
 * answers a fresh token so the admin who made the change stays signed in. Wrong current passwords
 * are throttled like sign-in failures, so a stolen token cannot be used to guess the password.
 */
export async function changePassword(
  adminId: string,
  currentPassword: string,
  newPassword: string,
  ip: string,
  cookie: string | undefined,
): Promise<string> {
  const admin = await db().admin.findUnique({
    where: { id: adminId },
    select: { email: true, passwordHash: true },
  });
  if (!admin) throw invalidCredentials();
  assertPasswordCheckAvailable();
  const device = await trustedDevice(cookie, admin.email);
  const attempt = await reserveAttempt(admin.email, { ip, device });
  if ("retry" in attempt) throw tooManyAttempts(attempt.retry);
  if (!(await verifyPassword(currentPassword, admin.passwordHash))) {
    throw badRequest("Current password is incorrect", { currentPassword: "Current password is incorrect" });
  }
  await markSucceeded(attempt.id);
  // Millisecond precision matches the column, so the token's version compares exactly.
  const changedAt = new Date();
  const updated = await db().admin.update({
    where: { id: adminId },
    data: { passwordHash: await hashPassword(newPassword), passwordChangedAt: changedAt },
    select: { id: true, passwordChangedAt: true },
  });
  return signAdminToken(updated);
}
