import "server-only";
import { revalidateCatalogue } from "@/lib/categories/cache";
import { pool } from "@/lib/db";
import { getEmailVerifierApiKey } from "@/lib/settings";
import { mailDomainChecker, zeroBounce } from "@/lib/verification/configured";
import {
  configuredMonthlyLimit,
  countInvalidFound,
  MONTHLY_LIMIT_REACHED,
  providerBatches,
  recordVerifierError,
  reserveAddresses,
  VERDICT_REUSE_HOURS,
} from "@/lib/verification/provider-budget";
import { isProviderVerdict, verifyAddresses } from "@/lib/verification/verify-addresses";
import { BATCH_LIMIT } from "@/lib/verification/zerobounce";

// What a replacement claim's reported addresses are found to be when the claim arrives
// (docs/product-rules.md, "Replacement claims"): invalid, confirmed deliverable by the provider, or
// unconfirmed (the buyer's word stands, within the 20% cap). The provider is asked only about
// addresses it gave no verdict in the last 24 hours, and only as far as the shared pace has room
// now (one minute of its batches) and the month's allowance lasts: the rest stays unconfirmed.
// Every verdict is recorded on its lead at once, as a re-check's would be, whatever the claim's
// answer, so that a claim sent again reuses it.

export type Verdict = {
  verdict: "invalid" | "valid" | "unconfirmed";
  reason: string | null;
  /** When the verdict was given (an earlier check's time for a reused one). */
  checkedAt: Date;
};

/** A delivered lead a claim reports, as stored. */
export type ReportedLead = {
  lead_id: bigint;
  email: string;
  email_status: string;
  provider_checked_at: Date | null;
};

/** How far ahead of now a claim may book the provider's pace: one minute of its batches. */
const CLAIM_PACE_AHEAD_MS = 60_000;

function verdictOf(status: string | null, reason: string | null, checkedAt: Date): Verdict {
  const verdict = status === "invalid" ? "invalid" : status === "valid" ? "valid" : "unconfirmed";
  return { verdict, reason, checkedAt };
}

/** The provider as configured, limited to the addresses the pace and the month's allowance take now. */
async function paidProvider(now: Date) {
  const provider = zeroBounce(await getEmailVerifierApiKey());
  if (!provider) return undefined;
  const pace = providerBatches();
  return {
    provider,
    allow: async (addresses: number): Promise<number> => {
      const batches = await pace.takeNow(Math.ceil(addresses / BATCH_LIMIT), CLAIM_PACE_AHEAD_MS);
      const allowed = Math.min(addresses, batches * BATCH_LIMIT);
      if (allowed === 0) return 0;
      if (await reserveAddresses(now, allowed, configuredMonthlyLimit())) return allowed;
      await recordVerifierError(MONTHLY_LIMIT_REACHED, now);
      return 0;
    },
  };
}

/** The check at the claim, outside any lock: our checks, then the provider within its budget. */
export async function checkReported(leads: ReportedLead[], now: Date): Promise<Map<string, Verdict>> {
  const verdicts = new Map<string, Verdict>();
  const reusedSince = now.getTime() - VERDICT_REUSE_HOURS * 3_600_000;
  const asked: ReportedLead[] = [];
  for (const lead of leads) {
    if (lead.provider_checked_at && lead.provider_checked_at.getTime() > reusedSince) {
      verdicts.set(lead.email, verdictOf(lead.email_status, null, lead.provider_checked_at));
    } else {
      asked.push(lead);
    }
  }
  if (asked.length === 0) return verdicts;

  const paid = await paidProvider(now);
  const { checks, providerError } = await verifyAddresses(
    asked.map((lead) => lead.email),
    { domains: mailDomainChecker(), provider: paid?.provider, allowProvider: paid?.allow },
  );
  if (providerError) await recordVerifierError(providerError.message, now);

  const recorded = { ids: [] as bigint[], statuses: [] as string[], reasons: [] as string[] };
  const byProvider: boolean[] = [];
  checks.forEach((check, index) => {
    verdicts.set(asked[index].email, verdictOf(check.status, check.reason, now));
    if (check.status === null) return;
    recorded.ids.push(asked[index].lead_id);
    recorded.statuses.push(check.status);
    recorded.reasons.push(check.reason ?? "");
    byProvider.push(isProviderVerdict(check));
  });
  if (recorded.ids.length > 0) await recordVerdicts(recorded, byProvider, now);
  return verdicts;
}

/** The verdicts on their leads, as a re-check records them; the ones found invalid are counted. */
async function recordVerdicts(
  checked: { ids: bigint[]; statuses: string[]; reasons: string[] },
  byProvider: boolean[],
  at: Date,
): Promise<void> {
  const { rows } = await pool().query<{ invalid: number }>(
    `WITH checked AS (
       UPDATE leads l SET email_status = c.status::"EmailStatus", email_status_reason = c.reason,
              email_checked_at = $5,
              verified_at = CASE WHEN c.status IN ('valid', 'accept_all') THEN $5 ELSE l.verified_at END,
              provider_checked_at = CASE WHEN c.by_provider THEN $5 ELSE l.provider_checked_at END
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::boolean[]) AS c(id, status, reason, by_provider)
        WHERE l.id = c.id AND l.email_status <> 'invalid'
        RETURNING c.status)
     SELECT count(*) FILTER (WHERE status = 'invalid')::int AS invalid FROM checked`,
    [checked.ids.map(String), checked.statuses, checked.reasons, byProvider, at],
  );
  // The triggers on leads moved the counts; this instance's cached pages follow.
  revalidateCatalogue();
  await countInvalidFound(pool(), rows[0].invalid, at);
}
