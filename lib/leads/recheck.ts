import "server-only";
import type { PoolClient } from "pg";
import { pool } from "@/lib/db";
import { env, insideNextServer } from "@/lib/env";
import { pgTransaction } from "@/lib/pg-transaction";
import {
  MONTHLY_LIMIT_REACHED,
  monthOf,
  Pace,
  PROVIDER_BATCHES_PACE,
  PROVIDER_BATCHES_PER_MINUTE,
  recordVerifierError,
  reserve,
  VERDICT_REUSE_HOURS,
} from "@/lib/leads/provider-spend";
import { getEmailVerifierApiKey } from "@/lib/settings";
import {
  advanceSweep,
  claimRequested,
  dueBefore,
  finishSweeps,
  requestRecheck,
  type Claimed,
} from "@/lib/leads/recheck-queue";
import { mailDomainChecker, zeroBounce } from "@/lib/verification/configured";
import type { MailDomainChecker } from "@/lib/verification/mail-domain";
import type { RecheckOverview } from "@/lib/schemas/admin";
import { parseAddress } from "@/lib/verification/syntax";
import { isProviderVerdict, verifyAddresses, type AddressCheck } from "@/lib/verification/verify-addresses";
import { BATCH_LIMIT, type ZeroBounce } from "@/lib/verification/zerobounce";

// Re-checks that keep the freshness promise (docs/product-rules.md, "Verification"): sellable
// leads whose last verification (imported or ours) is older than 27 days are checked again, in
// claims of up to 200 rows locked with SKIP LOCKED, so any number of workers and instances share
// the work, and a restart loses nothing (what is due is read from the leads each time). The
// categories the admin asked to re-check now (lib/leads/recheck-queue.ts) are taken first.

export type RecheckOptions = {
  domains: MailDomainChecker;
  provider: ZeroBounce | null;
  /** Addresses a second, over all of this run's claims; 0: no limit. */
  ratePerSecond: number;
  /** Addresses the provider may be sent this month (UTC), in all; null: no cap. */
  monthlyLimit: number | null;
  /** Provider batches started a minute. */
  batchesPerMinute?: number;
  /** Claims in flight at once. */
  concurrency?: number;
  now?: () => Date;
};

export type RecheckResult = {
  /** Leads whose check came to an end (a verdict, or our checks passed without a provider). */
  checked: number;
  /** Leads the provider confirmed (valid or accept-all): their verified_at moved. */
  confirmed: number;
  /** Leads found invalid: no longer sellable. */
  invalid: number;
  /** Why the run stopped early (the provider failed or the month's limit was reached); else null. */
  stoppedBy: string | null;
};

/** Provider verdicts given since this moment are reused, not asked again. */
function reusedSince(now: Date): Date {
  return new Date(now.getTime() - VERDICT_REUSE_HOURS * 3_600_000);
}

/** Up to a batch of the leads due, past `after`, locked (SKIP LOCKED: workers never wait for each other). */
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
      WHERE id > $1::bigint AND lead_sellable(quarantined_at, email_status)
        AND (GREATEST(verified_at, email_checked_at) < $2 OR (email_checked_at IS NULL AND email_status_reason = 'queued'))
      ORDER BY leads.id LIMIT $3
      FOR NO KEY UPDATE SKIP LOCKED`,
    [after, before, BATCH_LIMIT, reusedSince(now)],
  );
  return rows;
}

/** Re-checks every lead due now; answers what it did. */
export async function recheckDueLeads(options: RecheckOptions): Promise<RecheckResult> {
  const now = options.now ?? (() => new Date());
  const started = now();
  const before = dueBefore(started);
  const rate = new Pace("recheck-addresses", options.ratePerSecond);
  const batches = new Pace(
    PROVIDER_BATCHES_PACE,
    (options.batchesPerMinute ?? PROVIDER_BATCHES_PER_MINUTE) / 60,
  );
  const result: RecheckResult = { checked: 0, confirmed: 0, invalid: 0, stoppedBy: null };
  let cursor = "0";
  let done = false;

  const checkClaim = async (client: PoolClient): Promise<void> => {
    // Paced before the claim, so that no lock is held while waiting.
    await rate.take(BATCH_LIMIT);
    if (options.provider) await batches.take(1);
    const requested = await claimRequested(client, BATCH_LIMIT, reusedSince(now()));
    const rows = requested?.rows ?? (await claimDue(client, cursor, before, now()));
    if (rows.length === 0) {
      done = true;
      return;
    }
    if (!requested) {
      const last = rows[rows.length - 1].id;
      if (BigInt(last) > BigInt(cursor)) cursor = last;
    }
    // A provider verdict under 24 hours old stands (a claim's check gave it): not asked again.
    const asked = rows.filter((row) => !row.fresh);
    if (asked.length === 0) {
      if (requested) await advanceSweep(client, requested.step, rows.length);
      return;
    }

    const emails = asked.map((row) => row.email);
    // Asked first so that the domains that did not answer are known: those addresses get no verdict.
    const deadlineAt = Date.now() + 5000;
    const answers = await options.domains.check(
      emails.flatMap((email) => parseAddress(email)?.domain ?? []),
      deadlineAt,
    );
    let provider = options.provider ?? undefined;
    if (provider) {
      if (!(await reserve(monthOf(now()), asked.length, options.monthlyLimit))) {
        result.stoppedBy = MONTHLY_LIMIT_REACHED;
        await recordVerifierError(result.stoppedBy, now());
        provider = undefined;
      }
    }
    const { checks, providerError } = await verifyAddresses(emails, {
      domains: options.domains,
      provider,
      deadlineAt,
    });
    if (providerError) {
      result.stoppedBy = providerError.message;
      await recordVerifierError(providerError.message, now());
    }
    const answered = (index: number, check: AddressCheck): boolean => {
      if (check.status === "invalid") return true;
      // With a provider configured, the check ends with its verdict only, whatever our resolver
      // said: it checks the mailbox itself (and it was paid for).
      if (options.provider) return check.status !== null && provider !== undefined && !providerError;
      const domain = parseAddress(emails[index])?.domain;
      return domain !== undefined && answers.get(domain) === "accepts_mail";
    };
    const ids: string[] = [];
    const statuses: (string | null)[] = [];
    const reasons: (string | null)[] = [];
    const roles: boolean[] = [];
    const free: boolean[] = [];
    const confirmed: boolean[] = [];
    const byProvider: boolean[] = [];
    checks.forEach((check, index) => {
      // No verdict: the status stays, the lead stays due and is asked about again on a later run.
      if (!answered(index, check)) return;
      ids.push(asked[index].id);
      statuses.push(check.status);
      reasons.push(check.reason);
      roles.push(check.roleAccount);
      free.push(check.freeMail);
      confirmed.push(check.status === "valid" || check.status === "accept_all");
      byProvider.push(isProviderVerdict(check));
    });
    // A requested sweep moves past the claim unless the provider could not answer: then the same
    // leads are taken again on the next run.
    if (requested && (!options.provider || (provider !== undefined && !providerError))) {
      await advanceSweep(client, requested.step, rows.length);
    }
    if (ids.length === 0) return;
    const at = now();
    const { rows: changed } = await client.query<{ invalid: number; confirmed: number }>(
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
      [ids, statuses, reasons, roles, free, confirmed, at, byProvider],
    );
    const { invalid } = changed[0];
    if (invalid > 0) {
      await client.query(
        `INSERT INTO verifier_months AS m (month, invalid_found) VALUES ($1::date, $2)
         ON CONFLICT (month) DO UPDATE SET invalid_found = m.invalid_found + $2`,
        [monthOf(at), invalid],
      );
    }
    result.checked += ids.length;
    result.confirmed += changed[0].confirmed;
    result.invalid += invalid;
  };

  const worker = async (): Promise<void> => {
    while (!done && result.stoppedBy === null) {
      await finishSweeps();
      await pgTransaction(pool(), checkClaim);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 2 }, worker));
  await finishSweeps();
  // Leads that turned invalid or were confirmed moved the counts (the triggers moved them); the
  // cached pages follow through catalogue_version, which the same statements bumped when a lead
  // shown changed (this runs outside any request).
  return result;
}

const globalForRecheck = globalThis as unknown as { recheckRunning?: boolean };

/**
 * One run of the re-checks as the environment configures them, unless one is running in this
 * process; the periodic upkeep calls it, and it goes on past the upkeep's tick when it must.
 */
export async function runRechecks(): Promise<RecheckResult | null> {
  if (globalForRecheck.recheckRunning) return null;
  globalForRecheck.recheckRunning = true;
  try {
    return await recheckDueLeads({
      domains: mailDomainChecker(),
      provider: zeroBounce(await getEmailVerifierApiKey()),
      ratePerSecond: env().EMAIL_VERIFY_RATE,
      monthlyLimit: env().EMAIL_VERIFIER_MONTHLY_LIMIT ?? null,
    });
  } finally {
    globalForRecheck.recheckRunning = false;
  }
}

/**
 * The admin's "Re-check now": queued for every instance's workers, and this server process starts
 * a run at once rather than at the upkeep's next tick (scripts and tests run their own).
 */
export async function recheckNow(categoryId: string): Promise<RecheckOverview> {
  const queued = await requestRecheck(categoryId);
  if (insideNextServer()) {
    runRechecks().catch((error: Error) => console.error(`[leads] re-checks failed: ${error.message}`));
  }
  return queued;
}
