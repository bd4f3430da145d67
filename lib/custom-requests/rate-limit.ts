import "server-only";
import { db, type Tx } from "@/lib/db";
import { minutesText, tooManyRequests } from "@/lib/errors";
import { reportLimit } from "@/lib/limits/rate-limit-headers";

// Custom requests accepted per client address per clock hour, counted in custom_request_counts
// (one row per address and hour): no second server, and every app instance sharing the database
// shares the limit. The count is raised by one atomic upsert in the transaction that stores the
// request, so concurrent submissions from one address (an office behind one NAT) are all stored
// while below the limit, and never outrun it.

function refusal(limit: number, seconds: number) {
  return tooManyRequests(
    `Too many requests from your address: at most ${limit} custom requests per hour. Please try again in ${minutesText(seconds)}.`,
    seconds,
  );
}

/**
 * Throws 429 with Retry-After when the address already sent `limit` requests this hour, counting
 * `inFlight` more that are being received from it right now. A cheap early answer before a body
 * is read; countCustomRequest() is what holds the limit.
 */
export async function assertWithinRateLimit(clientIp: string, limit: number, inFlight = 0): Promise<void> {
  if (limit <= 0) return;
  const [{ count, hour_left }] = await db().$queryRaw<{ count: number; hour_left: number }[]>`
    SELECT coalesce((SELECT count FROM custom_request_counts
                      WHERE client_ip = ${clientIp} AND hour = date_trunc('hour', now())), 0) AS count,
           ceil(extract(epoch FROM date_trunc('hour', now()) + interval '1 hour' - now()))::int AS hour_left`;
  const hourLeft = Math.max(1, hour_left);
  if (count + inFlight < limit) {
    // What is left once this one is stored, the submissions in flight counted as stored too.
    reportLimit({ limit, remaining: limit - count - inFlight - 1, resetSeconds: hourLeft });
    return;
  }
  // Refused for uploads still in flight: a slot may free up as soon as one of them is refused.
  const retryAfter = count < limit ? 30 : hourLeft;
  reportLimit({ limit, remaining: 0, resetSeconds: retryAfter });
  throw refusal(limit, retryAfter);
}

/**
 * Counts one more request from the address this hour, or throws 429 with Retry-After (and the
 * caller's transaction rolls back, count included) when that would pass `limit`. Called last in
 * the storing transaction: the counter row stays locked only until its commit.
 */
export async function countCustomRequest(tx: Tx, clientIp: string, limit: number): Promise<void> {
  if (limit <= 0) return;
  const [{ count, retry_after }] = await tx.$queryRaw<{ count: number; retry_after: number }[]>`
    INSERT INTO custom_request_counts (client_ip, hour, count)
    VALUES (${clientIp}, date_trunc('hour', now()), 1)
    ON CONFLICT (client_ip, hour) DO UPDATE SET count = custom_request_counts.count + 1
    RETURNING count, ceil(extract(epoch FROM hour + interval '1 hour' - now()))::int AS retry_after`;
  const hourLeft = Math.max(1, retry_after);
  reportLimit({ limit, remaining: limit - count, resetSeconds: hourLeft });
  if (count > limit) throw refusal(limit, hourLeft);
}

/** Deletes the counts of past hours (the periodic upkeep). */
export async function pruneCustomRequestCounts(): Promise<void> {
  await db().$executeRaw`DELETE FROM custom_request_counts WHERE hour < date_trunc('hour', now())`;
}
