import "server-only";
import type { PasswordTask } from "@/lib/auth/password-worker";
import { BusyError, Limiter } from "@/lib/concurrency";
import { db } from "@/lib/db";
import { runOffThread } from "@/lib/off-thread";

export const BCRYPT_COST = 12;

// bcrypt's work runs on the worker thread (lib/auth/password-worker.ts), never the main thread's
// event loop. Several hashes at once take no less time in total, so they go one at a time, the
// rest queued; a full queue (about 5 s of work) is refused rather than grown.
const passwordsBusy = () =>
  new BusyError("The server is busy checking passwords. Please try again in a few seconds.", 5);
const hashing = new Limiter(1, 20, passwordsBusy);

function offThread<O extends string | boolean>(task: PasswordTask): Promise<O> {
  return runOffThread<PasswordTask, O>("lib/auth/password-worker.ts", task, passwordsBusy);
}

/** Refuses at once (503) when a new password check would be: before an attempt is counted against anyone. */
export function assertPasswordCheckAvailable(): void {
  if (hashing.full) throw passwordsBusy();
}

export function hashPassword(password: string): Promise<string> {
  return hashing.run(() => offThread<string>({ password, cost: BCRYPT_COST }));
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return hashing.run(() => offThread<boolean>({ password, hash }));
}

/** Creates the admin account when none exists yet; returns whether it did. */
export async function ensureAdmin(email: string, password: string): Promise<boolean> {
  if (await db().admin.findFirst({ select: { id: true } })) return false;
  const { count } = await db().admin.createMany({
    data: [{ email: email.toLowerCase(), passwordHash: await hashPassword(password) }],
    // Two instances starting at once: one creates the account, the other finds it.
    skipDuplicates: true,
  });
  return count === 1;
}
