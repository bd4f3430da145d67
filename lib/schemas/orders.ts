import { z } from "zod";
import type { EmailQuality } from "@/lib/email-quality";
import { personEmail } from "@/lib/schemas/common";
import type { InvoiceSummary } from "@/lib/schemas/invoice";

/** `/api/orders/{key}`: any id-like value; one that is no download key is answered 404 like an unknown one. */
export const orderKeyParams = z.object({
  key: z
    .string()
    .min(1, "Invalid order key")
    .max(128, "Invalid order key")
    .regex(/^[A-Za-z0-9_-]+$/, "Invalid order key"),
});

/** Find my orders. */
export const orderLookupBody = z.object({
  email: personEmail,
});
export type OrderLookupBody = z.input<typeof orderLookupBody>;

/** What `GET /api/orders/{key}` answers (docs/product-rules.md). */
export type OrderSummary = {
  categoryTitle: string;
  /** The segment bought (describeSegment in lib/segments); "" for the whole list. */
  segment: string;
  /** Which email statuses the order accepts (lib/email-quality.ts). */
  emailQuality: EmailQuality;
  /** What allocation left out (the buyer's earlier purchases, their exclusion list); "" for nothing. */
  excluded: string;
  packageType: "starter" | "standard" | "premium";
  leadCount: number;
  amount: number;
  status: string;
  paidAt: string | null;
  expiresAt: string | null;
  /** The accepted replacement claim (docs/product-rules.md); null while none was accepted. */
  replacement: ReplacementSummary | null;
  /** Rows found invalid after the sale and swapped for fresh leads (files that heal). */
  swaps: OrderSwaps;
  /** The paid order's invoice (docs/product-rules.md, "Invoices"); null until the buyer asks for one. */
  invoice: InvoiceSummary | null;
  /** People in the order erased (opted out) since the purchase; their rows have left the file. */
  optOuts: number;
};

/** `GET /api/orders/{key}/opt-outs`: the SHA-256 (hex) of each such person's normalised email. */
export type OrderOptOuts = {
  count: number;
  optOuts: { sha256: string; at: string }[];
};

/** An order's healed rows: how many were swapped, how many the category could not fill, the latest. */
export type OrderSwaps = {
  replaced: number;
  notReplaced: number;
  /** The latest 50, newest first: the file's row (1 is the first lead) and when. */
  latest: { row: number; replaced: boolean; at: string }[];
};

// ---- Replacement claims (docs/product-rules.md) ----

/** Days after payment during which a replacement can be claimed. */
export const REPLACEMENT_DAYS = 30;
/** A claim is accepted when strictly more than this share (in percent) of the order's leads is reported. */
export const REPLACEMENT_THRESHOLD_PERCENT = 5;
export const MAX_REPORTED_ADDRESSES = 20_000;

/** 5% of an order's lead count: a claim needs strictly more reported leads than this. */
export function replacementThreshold(leadCount: number): number {
  return Math.floor((leadCount * REPLACEMENT_THRESHOLD_PERCENT) / 100);
}
export const TOO_MANY_ADDRESSES = `At most ${MAX_REPORTED_ADDRESSES.toLocaleString("en-US")} addresses can be reported in one claim`;

export const replacementBody = z.object({
  emails: z
    .array(z.string("Each address must be text").max(320, "An address is at most 320 characters"), {
      error: "emails must be a list of addresses",
    })
    .min(1, "Report at least one address")
    .max(MAX_REPORTED_ADDRESSES, TOO_MANY_ADDRESSES),
});

// Addresses as a claim reads them out of pasted text or a CSV file: any cell that holds one. The
// text is split into cells at separators, then each cell gets one anchored check, so the work is
// linear in the text's length: a pattern searched across the whole text backtracks (quadratic on a
// long run of letters). A cell longer than any address is no address.
const CELL_SEPARATORS = /[\s"'`,;:<>()[\]]+/;
// The domain's first dot after its first character is the one matched: one way to match each cell.
const ADDRESS_CELL = /^[^@]+@[^@][^@.]*\.[^@]+$/;
const MAX_ADDRESS_LENGTH = 320;

export function addressesInText(text: string): string[] {
  return text
    .split(CELL_SEPARATORS)
    .filter((cell) => cell.length <= MAX_ADDRESS_LENGTH && ADDRESS_CELL.test(cell));
}

/** An accepted claim, as `GET /api/orders/{key}` and the claim itself answer it. */
export type ReplacementSummary = {
  reported: number;
  counted: number;
  replaced: number;
  shortfall: number;
  /** Counted rows not replaced (the 20% cap without a provider), held for the admin's review. */
  heldForReview: number;
  /** Held rows the admin's review declined: they stay as delivered. */
  declined: number;
  claimedAt: string;
};

export type ReplacementAnswer = {
  accepted: true;
  reported: number;
  counted: number;
  replaced: number;
  shortfall: number;
  notInOrder: string[];
  /** Reported addresses the check at the claim found invalid (counted, replaced, unsellable). */
  invalidConfirmed: number;
  /** Reported addresses the provider confirmed deliverable at the claim: not counted. */
  verifiedDeliverable: { email: string; checkedAt: string }[];
  /** Counted addresses not replaced (the 20% cap without a provider), held for the admin's review. */
  heldForReview: number;
};

/** Counted rows not found invalid (catch-all, unknown, unanswered): one claim replaces at most this share of the order's rows. */
export const UNCONFIRMED_REPLACEMENT_PERCENT = 20;
