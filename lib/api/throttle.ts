import "server-only";
import { createHash } from "node:crypto";
import { tooManyRequests } from "@/lib/errors";
import { withTransaction } from "@/lib/db";

// Sliding-window limits kept in PostgreSQL (throttle_events), so every app instance sharing the
// database shares them. A bucket names what is limited ("unknown-id:1.2.3.4"); only its SHA-256 is
// stored, so limits on emails and provider ids keep neither in clear text.

export type Limit = { bucket: string; max: number; windowSeconds: number };

function hashBucket(bucket: string): string {
  return createHash("sha256").update(bucket).digest("hex");
}

/**
 * Counts one attempt against the limit when it is still open and answers null; when `max`
 * attempts already fell in the window, counts nothing and answers the seconds until one leaves it.
 * Serialised per bucket (transaction-scoped advisory lock), so concurrent requests cannot overshoot.
 */
export async function takeToken(limit: Limit): Promise<number | null> {
  const bucket = hashBucket(limit.bucket);
  return withTransaction(async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [bucket]);
    const { rows } = await client.query<{ count: number; retry_after: number | null }>(
      `SELECT count(*)::int AS count,
              ceil(extract(epoch FROM min(created_at) + make_interval(secs => $2) - now()))::int AS retry_after
         FROM throttle_events
        WHERE bucket = $1 AND created_at > now() - make_interval(secs => $2)`,
      [bucket, limit.windowSeconds],
    );
    const { count, retry_after } = rows[0];
    if (count >= limit.max) return Math.max(1, retry_after ?? limit.windowSeconds);
    await client.query("INSERT INTO throttle_events (bucket) VALUES ($1)", [bucket]);
    return null;
  });
}

/** Counts one attempt, or throws 429 with Retry-After and `message` when the limit is reached. */
export async function assertWithinLimit(limit: Limit, message: string): Promise<void> {
  const retryAfter = await takeToken(limit);
  if (retryAfter === null) return;
  throw tooManyRequests(message, retryAfter);
}

/** Drops attempts older than any window in use (the longest is a day). */
export async function pruneThrottleEvents(): Promise<void> {
  await withTransaction((client) =>
    client.query("DELETE FROM throttle_events WHERE created_at < now() - interval '2 days'"),
  );
}
