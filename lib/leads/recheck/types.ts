import "server-only";
import type { Pace } from "@/lib/limits/pace";
import type { MailDomainChecker } from "@/lib/verification/mail-domain";
import type { ZeroBounce } from "@/lib/verification/zerobounce";

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

/** One run's state, shared by its concurrent claims. */
export type Run = {
  options: RecheckOptions;
  now: () => Date;
  /** Leads last verified before this are due. */
  before: Date;
  /** The run's pace of addresses, and the provider's shared pace of batches. */
  rate: Pace;
  batches: Pace;
  result: RecheckResult;
  /** The last lead id claimed among the due ones (not the requested sweeps). */
  cursor: string;
  /** No lead is left to claim. */
  done: boolean;
};

/** What one claim's checks gave, one entry per lead that got an answer. */
export type CheckedLeads = {
  ids: string[];
  statuses: (string | null)[];
  reasons: (string | null)[];
  roles: boolean[];
  free: boolean[];
  confirmed: boolean[];
  byProvider: boolean[];
};
