import "server-only";
import type { PoolClient } from "pg";
import type { Claimed } from "@/lib/leads/recheck-queue";
import { SELLABLE } from "@/lib/leads/sellable";
import { VERDICT_REUSE_HOURS } from "@/lib/verification/provider-budget";
import { BATCH_LIMIT } from "@/lib/verification/zerobounce";

/** Provider verdicts given since this moment are reused, not asked again. */
export function reusedSince(now: Date): Date {
  return new Date(now.getTime() - VERDICT_REUSE_HOURS * 3_600_000);
}

/** The next due leads after the lead id `after`, locked for this claim (others skip them). */
export async function claimDue(
  client: PoolClient,
  after: string,
  before: Date,
  now: Date,
): Promise<Claimed[]> {
  // Ordered by the column, not by the text it is answered as. NO KEY UPDATE: the status columns change, never the key, so an order inserting order_leads
  // (which takes KEY SHARE on its leads) is never held up by a claim.
  const { rows } = await client.query<Claimed>(
    `SELECT id::text, email, COALESCE(provider_checked_at > $4::timestamptz, false) AS fresh FROM leads
      WHERE id > $1::bigint AND ${SELLABLE}
        AND (GREATEST(verified_at, email_checked_at) < $2 OR (email_checked_at IS NULL AND email_status_reason = 'queued'))
      ORDER BY leads.id LIMIT $3
      FOR NO KEY UPDATE SKIP LOCKED`,
    [after, before, BATCH_LIMIT, reusedSince(now)],
  );
  return rows;
}
