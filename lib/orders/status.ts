// Provider statuses as the product reads them. Shared by the server (which decides) and the browser
// (which mirrors the product's "payment is complete" rule), so no server-only marker here.

/**
 * Statuses that count as paid (docs/product-rules.md, and `sending`: the provider is forwarding funds it
 * already confirmed); compared case-insensitively ('PAID').
 */
export const PAID_STATUSES = ["confirmed", "sending", "finished", "paid"] as const;

export function isPaidStatus(status: string | null | undefined): boolean {
  return !!status && (PAID_STATUSES as readonly string[]).includes(status.toLowerCase());
}

/** The product's completion rule: success, a paid status, and an amount (if any) >= the price. */
export function isPaymentComplete(
  answer: { success?: boolean; status?: string; amount?: number | null; paid?: boolean },
  price: number,
): boolean {
  // `paid` is our server's own verdict (docs/product-rules.md); the rest is the product's rule.
  if (!answer.success || answer.paid === false || !isPaidStatus(answer.status)) return false;
  return answer.amount === undefined || answer.amount === null || answer.amount >= price;
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

/** Statuses after which asking the provider again is pointless. */
export function isFinalStatus(status: string, paid: boolean): boolean {
  return paid || isClosedStatus(status);
}
