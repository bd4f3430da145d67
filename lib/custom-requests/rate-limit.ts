import "server-only";
import type { Pool, PoolClient } from "pg";
import { minutesText, tooManyRequests } from "@/lib/errors";

// Custom requests accepted per client address per hour, counted from the stored requests
// themselves (custom_requests.client_ip + created_at is indexed for it): no second server, and
// every app instance sharing the database shares the limit.

type Queryable = Pick<Pool | PoolClient, "query">;

const WINDOW_SQL = "interval '1 hour'";

/**
 * Throws 429 with Retry-After when the address already sent `limit` requests in the last hour,
 * counting `inFlight` more that are being received from it right now.
 */
export async function assertWithinRateLimit(
  client: Queryable,
  clientIp: string,
  limit: number,
  inFlight = 0,
): Promise<void> {
  if (limit <= 0) return;
  const { rows } = await client.query<{ count: number; retry_after: number | null }>(
    `SELECT count(*)::int AS count,
            ceil(extract(epoch FROM min(created_at) + ${WINDOW_SQL} - now()))::int AS retry_after
       FROM custom_requests
      WHERE client_ip = $1 AND created_at > now() - ${WINDOW_SQL}`,
    [clientIp],
  );
  const { count, retry_after } = rows[0];
  if (count + inFlight < limit) return;
  // Refused for uploads still in flight: a slot may free up as soon as one of them is refused.
  const seconds = count < limit ? 30 : Math.max(1, retry_after ?? 3600);
  throw tooManyRequests(
    `Too many requests from your address: at most ${limit} custom requests per hour. Please try again in ${minutesText(seconds)}.`,
    seconds,
  );
}
