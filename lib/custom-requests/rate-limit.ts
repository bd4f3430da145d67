import "server-only";
import { db, type Tx } from "@/lib/db";
import { minutesText, tooManyRequests } from "@/lib/errors";

// Custom requests accepted per client address per hour, counted from the stored requests
// themselves (custom_requests.client_ip + created_at is indexed for it): no second server, and
// every app instance sharing the database shares the limit.

/**
 * Throws 429 with Retry-After when the address already sent `limit` requests in the last hour,
 * counting `inFlight` more that are being received from it right now.
 */
export async function assertWithinRateLimit(
  clientIp: string,
  limit: number,
  inFlight = 0,
  tx: Tx = db(),
): Promise<void> {
  if (limit <= 0) return;
  const [{ count, retry_after }] = await tx.$queryRaw<{ count: number; retry_after: number | null }[]>`
    SELECT count(*)::int AS count,
           ceil(extract(epoch FROM min(created_at) + interval '1 hour' - now()))::int AS retry_after
      FROM custom_requests
     WHERE client_ip = ${clientIp} AND created_at > now() - interval '1 hour'`;
  if (count + inFlight < limit) return;
  // Refused for uploads still in flight: a slot may free up as soon as one of them is refused.
  const seconds = count < limit ? 30 : Math.max(1, retry_after ?? 3600);
  throw tooManyRequests(
    `Too many requests from your address: at most ${limit} custom requests per hour. Please try again in ${minutesText(seconds)}.`,
    seconds,
  );
}
