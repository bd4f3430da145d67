import "server-only";
import type { PoolClient } from "pg";
import { advanceSweep, claimRequested } from "@/lib/leads/recheck-queue";
import { claimDue, reusedSince } from "@/lib/leads/recheck/claim-due";
import { recordChecks } from "@/lib/leads/recheck/record";
import type { CheckedLeads, Run } from "@/lib/leads/recheck/types";
import {
  MONTHLY_LIMIT_REACHED,
  recordVerifierError,
  reserveAddresses,
} from "@/lib/verification/provider-budget";
import { parseAddress } from "@/lib/verification/syntax";
import { isProviderVerdict, verifyAddresses, type AddressCheck } from "@/lib/verification/verify-addresses";
import { BATCH_LIMIT } from "@/lib/verification/zerobounce";

/** One claim of up to 200 leads, checked and recorded in `client`'s transaction. */
export async function checkClaim(run: Run, client: PoolClient): Promise<void> {
  const { options, now, result } = run;
  // Paced before the claim, so that no lock is held while waiting.
  await run.rate.take(BATCH_LIMIT);
  if (options.provider) await run.batches.take(1);
  const requested = await claimRequested(client, BATCH_LIMIT, reusedSince(now()));
  const rows = requested?.rows ?? (await claimDue(client, run.cursor, run.before, now()));
  if (rows.length === 0) {
    run.done = true;
    return;
  }
  if (!requested) {
    const last = rows[rows.length - 1].id;
    if (BigInt(last) > BigInt(run.cursor)) run.cursor = last;
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
    if (!(await reserveAddresses(now(), asked.length, options.monthlyLimit))) {
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
  const checked: CheckedLeads = {
    ids: [],
    statuses: [],
    reasons: [],
    roles: [],
    free: [],
    confirmed: [],
    byProvider: [],
  };
  checks.forEach((check, index) => {
    // No verdict: the status stays, the lead stays due and is asked about again on a later run.
    if (!answered(index, check)) return;
    checked.ids.push(asked[index].id);
    checked.statuses.push(check.status);
    checked.reasons.push(check.reason);
    checked.roles.push(check.roleAccount);
    checked.free.push(check.freeMail);
    checked.confirmed.push(check.status === "valid" || check.status === "accept_all");
    checked.byProvider.push(isProviderVerdict(check));
  });
  // A requested sweep moves past the claim unless the provider could not answer: then the same
  // leads are taken again on the next run.
  if (requested && (!options.provider || (provider !== undefined && !providerError))) {
    await advanceSweep(client, requested.step, rows.length);
  }
  if (checked.ids.length === 0) return;
  const changed = await recordChecks(client, checked, now());
  result.checked += checked.ids.length;
  result.confirmed += changed.confirmed;
  result.invalid += changed.invalid;
}
