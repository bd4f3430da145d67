import "server-only";
import type { PoolClient } from "pg";
import { pool } from "@/lib/db";
import { env, insideNextServer } from "@/lib/env";
import { pgTransaction } from "@/lib/pg-transaction";
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
import { verifyAddresses, type AddressCheck } from "@/lib/verification/verify-addresses";
import { BATCH_LIMIT, type ZeroBounce } from "@/lib/verification/zerobounce";

// Re-checks that keep the freshness promise (docs/product-rules.md, "Verification"): sellable
// leads whose last verification (imported or ours) is older than 27 days are checked again, in
// claims of up to 200 rows locked with SKIP LOCKED, so any number of workers and instances share
// the work, and a restart loses nothing (what is due is read from the leads each time). The
// categories the admin asked to re-check now (lib/leads/recheck-queue.ts) are taken first.

// ZeroBounce allows 5 validatebatch calls a minute.
export const PROVIDER_BATCHES_PER_MINUTE = 5;

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

/**
 * Waits so that at most `perSecond` units pass a second, shared by every caller of every instance:
 * each take books its slot in the pace's row (one statement, so no lock is held while waiting).
 */
class Pace {
  constructor(
    private readonly name: string,
    private readonly perSecond: number,
  ) {}
  async take(units: number): Promise<void> {
    if (this.perSecond <= 0) return;
    const { rows } = await pool().query<{ wait_ms: number }>(
      `INSERT INTO paces AS p (name, next_at) VALUES ($1, clock_timestamp() + $2 * interval '1 ms')
       ON CONFLICT (name) DO UPDATE SET next_at = greatest(p.next_at, clock_timestamp()) + $2 * interval '1 ms'
       RETURNING extract(epoch FROM p.next_at - $2 * interval '1 ms' - clock_timestamp())::float * 1000 AS wait_ms`,
      [this.name, (units * 1000) / this.perSecond],
    );
    const wait = rows[0].wait_ms;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7) + "-01";
}

/** Takes `wanted` addresses from the month's allowance; false (nothing taken) when it lacks them. */
export async function reserve(month: string, wanted: number, limit: number | null): Promise<boolean> {
  const { rowCount } = await pool().query(
    `INSERT INTO verifier_months AS m (month, sent) SELECT $1::date, $2::int WHERE $3::int IS NULL OR $2::int <= $3::int
     ON CONFLICT (month) DO UPDATE SET sent = m.sent + $2::int WHERE $3::int IS NULL OR m.sent + $2::int <= $3::int`,
    [month, wanted, limit],
  );
  return rowCount === 1;
}

/** Records a provider failure for the admin (Settings shows the last one). */
export async function recordVerifierError(message: string, at: Date): Promise<void> {
  await pool().query(
    `INSERT INTO verifier_months (month, last_error, last_error_at) VALUES ($1::date, $2, $3)
     ON CONFLICT (month) DO UPDATE SET last_error = $2, last_error_at = $3`,
    [monthOf(at), message, at],
  );
}

async function claimDue(client: PoolClient, after: string, before: Date): Promise<Claimed[]> {
  // Ordered by the column, not by the text it is answered as. NO KEY UPDATE: the status columns change, never the key, so an order inserting order_leads
  // (which takes KEY SHARE on its leads) is never held up by a claim.
  const { rows } = await client.query<Claimed>(
    `SELECT id::text, email FROM leads
      WHERE id > $1::bigint AND lead_sellable(quarantined_at, email_status)
        AND (GREATEST(verified_at, email_checked_at) < $2 OR (email_checked_at IS NULL AND email_status_reason = 'queued'))
      ORDER BY leads.id LIMIT $3
      FOR NO KEY UPDATE SKIP LOCKED`,
    [after, before, BATCH_LIMIT],
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
    "provider-batches",
    (options.batchesPerMinute ?? PROVIDER_BATCHES_PER_MINUTE) / 60,
  );
  const result: RecheckResult = { checked: 0, confirmed: 0, invalid: 0, stoppedBy: null };
  let cursor = "0";
  let done = false;

  const checkClaim = async (client: PoolClient): Promise<void> => {
    // Paced before the claim, so that no lock is held while waiting.
    await rate.take(BATCH_LIMIT);
    if (options.provider) await batches.take(1);
    const requested = await claimRequested(client, BATCH_LIMIT);
    const rows = requested?.rows ?? (await claimDue(client, cursor, before));
    if (rows.length === 0) {
      done = true;
      return;
    }
    if (!requested) {
      const last = rows[rows.length - 1].id;
      if (BigInt(last) > BigInt(cursor)) cursor = last;
    }

    const emails = rows.map((row) => row.email);
    // Asked first so that the domains that did not answer are known: those addresses get no verdict.
    const deadlineAt = Date.now() + 5000;
    const answers = await options.domains.check(
      emails.flatMap((email) => parseAddress(email)?.domain ?? []),
      deadlineAt,
    );
    let provider = options.provider ?? undefined;
    if (provider) {
      if (!(await reserve(monthOf(now()), rows.length, options.monthlyLimit))) {
        result.stoppedBy = "The monthly limit of addresses sent to the verification provider was reached";
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
    checks.forEach((check, index) => {
      // No verdict: the status stays, the lead stays due and is asked about again on a later run.
      if (!answered(index, check)) return;
      ids.push(rows[index].id);
      statuses.push(check.status);
      reasons.push(check.reason);
      roles.push(check.roleAccount);
      free.push(check.freeMail);
      confirmed.push(check.status === "valid" || check.status === "accept_all");
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
           verified_at = CASE WHEN c.confirmed THEN $7 ELSE l.verified_at END
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::boolean[], $5::boolean[], $6::boolean[])
           AS c(id, status, reason, role, free, confirmed)
         WHERE l.id = c.id
         RETURNING c.status, c.confirmed)
       SELECT count(*) FILTER (WHERE status = 'invalid')::int AS invalid,
              count(*) FILTER (WHERE confirmed)::int AS confirmed FROM checked`,
      [ids, statuses, reasons, roles, free, confirmed, at],
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
