import "server-only";
import type { PoolClient } from "pg";
import type { CheckedLeads } from "@/lib/leads/recheck/types";
import { countInvalidFound } from "@/lib/verification/provider-budget";

/**
 * The claim's answers on their leads, in the claim's transaction; answers how many turned invalid
 * and how many were confirmed (those found invalid are counted for the month too).
 */
export async function recordChecks(
  client: PoolClient,
  checked: CheckedLeads,
  at: Date,
): Promise<{ invalid: number; confirmed: number }> {
  const { rows } = await client.query<{ invalid: number; confirmed: number }>(
    `WITH checked AS (
       UPDATE leads l SET
         email_status = COALESCE(c.status::"EmailStatus", l.email_status),
         email_status_reason = CASE WHEN c.status IS NULL THEN l.email_status_reason ELSE COALESCE(c.reason, '') END,
         role_account = c.role, free_mail = c.free, email_checked_at = $7,
         verified_at = CASE WHEN c.confirmed THEN $7 ELSE l.verified_at END,
         provider_checked_at = CASE WHEN c.by_provider THEN $7 ELSE l.provider_checked_at END
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::boolean[], $5::boolean[], $6::boolean[], $8::boolean[])
         AS c(id, status, reason, role, free, confirmed, by_provider)
       WHERE l.id = c.id
       RETURNING c.status, c.confirmed)
     SELECT count(*) FILTER (WHERE status = 'invalid')::int AS invalid,
            count(*) FILTER (WHERE confirmed)::int AS confirmed FROM checked`,
    [
      checked.ids,
      checked.statuses,
      checked.reasons,
      checked.roles,
      checked.free,
      checked.confirmed,
      at,
      checked.byProvider,
    ],
  );
  await countInvalidFound(client, rows[0].invalid, at);
  return rows[0];
}
