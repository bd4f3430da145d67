import "server-only";
import { db, type Tx } from "@/lib/db";
import { minutesText, tooManyRequests } from "@/lib/errors";

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
  const [row] = await db().$queryRaw<{ count: number; retry_after: number }[]>`
    SELECT count,
           ceil(extract(epoch FROM hour + interval '1 hour' - now()))::int AS retry_after
      FROM custom_request_counts
     WHERE client_ip = ${clientIp} AND hour = date_trunc('hour', now())`;
  const count = row?.count ?? 0;
  if (count + inFlight < limit) return;
  // Refused for uploads still in flight: a slot may free up as soon as one of them is refused.
  throw refusal(limit, count < limit ? 30 : Math.max(1, row.retry_after));
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
  if (count > limit) throw refusal(limit, Math.max(1, retry_after));
}

/** Deletes the counts of past hours (the periodic upkeep). */
export async function pruneCustomRequestCounts(): Promise<void> {
  await db().$executeRaw`DELETE FROM custom_request_counts WHERE hour < date_trunc('hour', now())`;
}
