import "server-only";
import { env, insideNextServer } from "@/lib/env";
import { requestRecheck } from "@/lib/leads/recheck-queue";
import { recheckDueLeads } from "@/lib/leads/recheck/run";
import type { RecheckResult } from "@/lib/leads/recheck/types";
import type { RecheckOverview } from "@/lib/schemas/admin";
import { getEmailVerifierApiKey } from "@/lib/settings";
import { mailDomainChecker, zeroBounce } from "@/lib/verification/configured";
import { configuredMonthlyLimit } from "@/lib/verification/provider-budget";

// Re-checks that keep the freshness promise (docs/product-rules.md, "Verification"): sellable
// leads whose last verification (imported or ours) is older than 27 days are checked again, in
// claims of up to 200 rows locked with SKIP LOCKED, so any number of workers and instances share
// the work, and a restart loses nothing (what is due is read from the leads each time). The
// categories the admin asked to re-check now (lib/leads/recheck-queue.ts) are taken first.
// run.ts runs the claims, check-claim.ts checks one, claim-due.ts takes the due leads and
// record.ts writes the answers; this file starts runs.

export { recheckDueLeads } from "@/lib/leads/recheck/run";
export type { RecheckOptions, RecheckResult } from "@/lib/leads/recheck/types";

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
      monthlyLimit: configuredMonthlyLimit(),
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
