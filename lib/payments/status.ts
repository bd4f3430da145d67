// Provider statuses as the product reads them. Shared by the server (which decides) and the browser
// (which mirrors the spec's "payment is complete" rule), so no server-only marker here.

/** Statuses that count as paid (spec section 4); compared case-insensitively ('PAID'). */
export const PAID_STATUSES = ["confirmed", "finished", "paid"] as const;

export function isPaidStatus(status: string | null | undefined): boolean {
  return !!status && (PAID_STATUSES as readonly string[]).includes(status.toLowerCase());
}

/** The spec's completion rule: success, a paid status, and an amount (if any) >= the price. */
export function isPaymentComplete(
  answer: { success?: boolean; status?: string; amount?: number | null; paid?: boolean },
  price: number,
): boolean {
  // `paid` is our server's own verdict (decisions.md); the rest is the spec's rule.
  if (!answer.success || answer.paid === false || !isPaidStatus(answer.status)) return false;
  return answer.amount === undefined || answer.amount === null || answer.amount >= price;
}

// How far along a payment is. Callbacks arrive repeated and out of order: an update only applies
// when it does not move the order backwards. Paid statuses rank last, confirmed before finished
// (PAID is the provider's final word too).
const RANK: Record<string, number> = {
  pending: 0,
  waiting: 1,
  confirming: 2,
  sending: 3,
  partially_paid: 3,
  failed: 4,
  expired: 4,
  refunded: 4,
  confirmed: 5,
  finished: 6,
  paid: 6,
};

export function statusRank(status: string): number {
  return RANK[status.toLowerCase()] ?? 1;
}

/** Statuses after which asking the provider again is pointless. */
export function isFinalStatus(status: string, paid: boolean): boolean {
  return paid || ["failed", "expired", "refunded"].includes(status.toLowerCase());
}
