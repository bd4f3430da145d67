import "server-only";
import { pool } from "@/lib/db";
import { Pace } from "@/lib/limits/pace";
import { pgTransaction } from "@/lib/pg-transaction";
import { dueBefore, finishSweeps } from "@/lib/leads/recheck-queue";
import { checkClaim } from "@/lib/leads/recheck/check-claim";
import type { RecheckOptions, RecheckResult, Run } from "@/lib/leads/recheck/types";
import { providerBatches } from "@/lib/verification/provider-budget";

/** Re-checks every lead due now; answers what it did. */
export async function recheckDueLeads(options: RecheckOptions): Promise<RecheckResult> {
  const now = options.now ?? (() => new Date());
  const run: Run = {
    options,
    now,
    before: dueBefore(now()),
    rate: new Pace("recheck-addresses", options.ratePerSecond),
    batches: providerBatches(options.batchesPerMinute),
    result: { checked: 0, confirmed: 0, invalid: 0, stoppedBy: null },
    cursor: "0",
    done: false,
  };
  const worker = async (): Promise<void> => {
    while (!run.done && run.result.stoppedBy === null) {
      await finishSweeps();
      await pgTransaction(pool(), (client) => checkClaim(run, client));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 2 }, worker));
  await finishSweeps();
  // Leads that turned invalid or were confirmed moved the counts (the triggers moved them); the
  // cached pages follow through catalogue_version, which the same statements bumped when a lead
  // shown changed (this runs outside any request).
  return run.result;
}
