import "server-only";
import { createHash } from "node:crypto";
import { LimitReachedError } from "@/lib/errors";
import { db, transaction } from "@/lib/db";
import { reportLimit, type LimitState } from "@/lib/limits/rate-limit-headers";

// Sliding-window limits kept in PostgreSQL (throttle_events), so every app instance sharing the
// database shares them. A bucket names what is limited ("unknown-id:1.2.3.4"); only its SHA-256 is
// stored, so limits on emails and provider ids keep neither in clear text.

export type Limit = { bucket: string; max: number; windowSeconds: number };

/** Mails of one kind the site sends one address unasked-for: at most 3 a day (docs/product-rules.md). */
export const MAILS_PER_ADDRESS = { max: 3, windowSeconds: 24 * 3600 };

function hashBucket(bucket: string): string {
  return createHash("sha256").update(bucket).digest("hex");
}

/** One attempt's count: whether it was allowed, and the limit as the caller stands after it. */
type Counted = LimitState & { allowed: boolean };

/**
 * Counts one attempt when the limit is still open; when `max` attempts already fell in the window,
 * counts nothing. `resetSeconds` is the time until the oldest attempt in the window leaves it (one
 * more is allowed then). Serialised per bucket (transaction-scoped advisory lock), so concurrent
 * requests cannot overshoot.
 */
async function countAttempt(limit: Limit): Promise<Counted> {
  const bucket = hashBucket(limit.bucket);
  return transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${bucket}, 0))`;
    // The window slides with the database's clock, as created_at is stamped by it.
    const [{ count, retry_after }] = await tx.$queryRaw<{ count: number; retry_after: number | null }[]>`
      SELECT count(*)::int AS count,
             ceil(extract(epoch FROM min(created_at) + make_interval(secs => ${limit.windowSeconds}::int) - now()))::int AS retry_after
        FROM throttle_events
       WHERE bucket = ${bucket} AND created_at > now() - make_interval(secs => ${limit.windowSeconds}::int)`;
    // An empty window starts with this attempt.
    const resetSeconds = Math.max(1, retry_after ?? limit.windowSeconds);
    if (count >= limit.max) return { allowed: false, limit: limit.max, remaining: 0, resetSeconds };
    await tx.throttleEvent.create({ data: { bucket }, select: { id: true } });
    return { allowed: true, limit: limit.max, remaining: limit.max - count - 1, resetSeconds };
  });
}

/**
 * Counts one attempt against the limit when it is still open and answers null; when `max`
 * attempts already fell in the window, counts nothing and answers the seconds until one leaves it.
 * Silent: for budgets the caller is not told about (mails to an address, provider calls), whose
 * figures could tell a visitor something about someone else.
 */
export async function takeToken(limit: Limit): Promise<number | null> {
  const counted = await countAttempt(limit);
  return counted.allowed ? null : counted.resetSeconds;
}

/**
 * Counts one attempt, or throws 429 with Retry-After and `message` when the limit is reached. The
 * limit is the caller's own: its RateLimit-* headers go on the response (lib/limits/rate-limit-headers.ts).
 */
export async function assertWithinLimit(limit: Limit, message: string): Promise<void> {
  const { allowed, ...state } = await countAttempt(limit);
  reportLimit(state);
  if (!allowed) throw new LimitReachedError(message, state.resetSeconds);
}

/** Drops attempts older than any window in use (the longest is a day). */
export async function pruneThrottleEvents(): Promise<void> {
  await db().throttleEvent.deleteMany({
    where: { createdAt: { lt: new Date(Date.now() - 2 * 86_400_000) } },
  });
}
