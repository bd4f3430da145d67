import "server-only";
import { assertWithinLimit, takeToken } from "@/lib/limits/throttle";
import { env } from "@/lib/env";
import type { Caller } from "@/lib/limits/caller";

// The limits on looking orders up (docs/product-rules.md): ids we do not know cost the caller, and
// the provider hears about each payment id at most once a minute and about ids we have not stored
// only within per-order, per-address and overall budgets.

const UNKNOWN_LOOKUPS = { max: 30, windowSeconds: 600 };
const PROVIDER_CALL_SECONDS = 60;
const LOOKUPS_PER_ADDRESS = { max: 30, windowSeconds: 600 };
// An order is pending a day at most; a returning tab brings one NP_id, so 3 leave room for a retry.
const RETURNED_IDS_PER_ORDER = { max: 3, windowSeconds: 24 * 3600 };

/** Counts a lookup of an id we do not know; 429 once an address made 30 in 10 minutes. */
export async function countUnknownLookup(caller: Caller): Promise<void> {
  await assertWithinLimit(
    { bucket: `unknown-id:${caller.clientIp}`, ...UNKNOWN_LOOKUPS },
    "Too many lookups of unknown orders from your address. Please try again later.",
  );
}

/** At most one provider call per id a minute, whoever asks. */
export async function mayAskProvider(paymentId: string): Promise<boolean> {
  const retryAfter = await takeToken({
    bucket: `provider-call:${paymentId}`,
    max: 1,
    windowSeconds: PROVIDER_CALL_SECONDS,
  });
  return retryAfter === null;
}

/**
 * Whether the provider may be asked about a payment id we have not stored: once a minute per id,
 * 3 per order for ids a returning tab brings with the order's key (`orderId`), 30 per client
 * address per 10 minutes, and PROVIDER_LOOKUP_LIMIT a minute in all. The overall budget is taken
 * last, so requests refused by the others do not spend it.
 */
export async function mayLookUpUnseen(paymentId: string, caller: Caller, orderId?: string): Promise<boolean> {
  if (!(await mayAskProvider(paymentId))) return false;
  if (
    orderId &&
    (await takeToken({ bucket: `returned-id:${orderId}`, ...RETURNED_IDS_PER_ORDER })) !== null
  ) {
    return false;
  }
  if ((await takeToken({ bucket: `provider-lookup:${caller.clientIp}`, ...LOOKUPS_PER_ADDRESS })) !== null) {
    return false;
  }
  const overall = { bucket: "provider-lookup", max: env().PROVIDER_LOOKUP_LIMIT, windowSeconds: 60 };
  return (await takeToken(overall)) === null;
}
