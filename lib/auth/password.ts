import "server-only";
import bcrypt from "bcryptjs";
import { BusyError, Limiter } from "@/lib/concurrency";
import { db } from "@/lib/db";

export const BCRYPT_COST = 12;

// bcryptjs runs on the event loop in slices of up to 100 ms. Several hashes at once take no less
// time in total (one thread does the work) but interleave their slices, so every other request
// waits behind all of them: one at a time, the rest queued, keeps the site answering during a
// burst of sign-ins. A full queue (about 5 s of work) is refused rather than grown.
const passwordsBusy = () =>
  new BusyError("The server is busy checking passwords. Please try again in a few seconds.", 5);
const hashing = new Limiter(1, 20, passwordsBusy);

/** Refuses at once (503) when a new password check would be: before an attempt is counted against anyone. */
export function assertPasswordCheckAvailable(): void {
  if (hashing.full) throw passwordsBusy();
}

export function hashPassword(password: string): Promise<string> {
  return hashing.run(() => bcrypt.hash(password, BCRYPT_COST));
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return hashing.run(() => bcrypt.compare(password, hash));
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
