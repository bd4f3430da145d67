// Provider statuses as the product reads them. Shared by the server (which decides) and the browser
// (which shows them), so no server-only marker here.

/**
 * Statuses that count as paid (docs/product-rules.md, and `sending`: the provider is forwarding funds it
 * already confirmed); compared case-insensitively ('PAID').
 */
export const PAID_STATUSES = ["confirmed", "sending", "finished", "paid"] as const;

export function isPaidStatus(status: string | null | undefined): boolean {
  return !!status && (PAID_STATUSES as readonly string[]).includes(status.toLowerCase());
}

// The statuses the spec's client reads as paid.
const ANSWERED_PAID_STATUSES = ["confirmed", "finished", "PAID"];

/**
 * The status a paid order is answered with: the provider's own when the spec's client reads it as
 * paid, else `confirmed` (e.g. for `sending`). The order and its history keep the provider's.
 */
export function answeredStatus(status: string, paid: boolean): string {
  return paid && !ANSWERED_PAID_STATUSES.includes(status) ? "confirmed" : status;
}

// How far along a payment is. Callbacks arrive repeated and out of order: an update only applies
// when it does not move the order backwards. Paid statuses rank last, in the provider's order
// confirmed, sending, finished (PAID is the provider's final word too). `cancelled` (the buyer
// left the invoice, nothing paid) ranks with waiting: the invoice can still be reopened and paid.
const RANK: Record<string, number> = {
  pending: 0,
  cancelled: 1,
  waiting: 1,
  confirming: 2,
  partially_paid: 3,
  failed: 4,
  expired: 4,
  refunded: 4,
  confirmed: 5,
  sending: 6,
  finished: 7,
  paid: 7,
};

export function statusRank(status: string): number {
  return RANK[status.toLowerCase()] ?? 1;
}

/**
 * Unpaid statuses that end a checkout (`error`: no invoice could be opened). The purchase card
 * stops checking and says why; sales counts leave them out of pending.
 */
export const CLOSED_STATUSES = ["failed", "expired", "refunded", "cancelled", "error"] as const;

export function isClosedStatus(status: string): boolean {
  return (CLOSED_STATUSES as readonly string[]).includes(status.toLowerCase());
}

/**
 * Statuses after which asking the provider again is pointless. A cancelled checkout is not one of
 * them: its invoice can still be paid, and such a payment counts (docs/product-rules.md).
 */
export const FINAL_UNPAID_STATUSES = CLOSED_STATUSES.filter((status) => status !== "cancelled");

export function isFinalStatus(status: string, paid: boolean): boolean {
  return paid || (FINAL_UNPAID_STATUSES as readonly string[]).includes(status.toLowerCase());
}
