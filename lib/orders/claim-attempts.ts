import "server-only";
import { pool } from "@/lib/db";
import { LimitReachedError } from "@/lib/errors";

// At most 3 replacement claims an order in any 24 hours (docs/product-rules.md, "Replacement
// claims"), whatever their answers: a claim refused with 422 may be sent again, but each one asks
// for checks, so each one counts. The attempts' times are kept on the order row, the older ones
// dropped as a new one is booked; one statement, so simultaneous claims count one at a time.

export const CLAIM_ATTEMPTS_PER_DAY = 3;
const DAY_MS = 24 * 3600 * 1000;

// A window limit's refusal: every claim on the order is refused the same way until Retry-After.
function refused(waitSeconds: number) {
  return new LimitReachedError(
    `An order can file at most ${CLAIM_ATTEMPTS_PER_DAY} replacement claims in 24 hours. Please try again later.`,
    waitSeconds,
  );
}

/** Seconds until the order may file a claim again; 0 when it may now. */
async function secondsUntilAttempt(orderId: string, now: Date): Promise<number> {
  const { rows } = await pool().query<{ first: Date | null; recent: number }>(
    `SELECT min(t) AS first, count(t)::int AS recent FROM orders, unnest(claim_attempts) t
      WHERE id = $1::uuid AND t > $2`,
    [orderId, new Date(now.getTime() - DAY_MS)],
  );
  const { first, recent } = rows[0];
  if (recent < CLAIM_ATTEMPTS_PER_DAY || !first) return 0;
  return Math.max(1, Math.ceil((first.getTime() + DAY_MS - now.getTime()) / 1000));
}

/** 429 with Retry-After when the order has had its 3 claims in 24 hours: asked before the body is read. */
export async function assertClaimAttemptLeft(orderId: string, now: Date): Promise<void> {
  const wait = await secondsUntilAttempt(orderId, now);
  if (wait > 0) throw refused(wait);
}

/** Books one of the order's claim attempts; 429 with Retry-After when it has had 3 in 24 hours. */
export async function bookClaimAttempt(orderId: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - DAY_MS);
  const { rowCount } = await pool().query(
    `UPDATE orders SET claim_attempts =
            array(SELECT t FROM unnest(claim_attempts) t WHERE t > $2 ORDER BY t) || $3::timestamptz
      WHERE id = $1::uuid AND (SELECT count(*) FROM unnest(claim_attempts) t WHERE t > $2) < $4`,
    [orderId, since, now, CLAIM_ATTEMPTS_PER_DAY],
  );
  if (rowCount !== 1) throw refused(Math.max(1, await secondsUntilAttempt(orderId, now)));
}
