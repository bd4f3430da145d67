import "server-only";
import { notFound } from "@/lib/errors";
import { findByKey } from "@/lib/orders/access";
import type { Caller } from "@/lib/limits/caller";
import { describeExclusions, type OrderView } from "@/lib/orders/view";
import { db } from "@/lib/db";
import { describeSegment } from "@/lib/segments/vocabularies";
import { swapsOf } from "@/lib/orders/heal";
import { invoiceOf } from "@/lib/orders/invoice";
import { optOutCounts } from "@/lib/orders/opt-outs";
import type { InvoiceSummary } from "@/lib/schemas/invoice";
import type { OrderSummary, OrderSwaps, ReplacementSummary } from "@/lib/schemas/orders";

/** The buyer's view of an order: what the order page shows and `GET /api/orders/{key}` answers. */
export function toOrderSummary(
  order: OrderView,
  replacement: ReplacementSummary | null,
  swaps: OrderSwaps,
  invoice: InvoiceSummary | null,
  optOuts: number,
): OrderSummary {
  return {
    categoryTitle: order.leadTitle,
    segment: describeSegment(order.segment),
    emailQuality: order.emailQuality,
    excluded: order.paidAt ? describeExclusions(order) : "",
    packageType: order.packageType,
    leadCount: order.leadCount,
    amount: order.amount,
    status: order.paidAt ? "paid" : order.status,
    paidAt: order.paidAt?.toISOString() ?? null,
    expiresAt: order.downloadExpiresAt?.toISOString() ?? null,
    replacement,
    swaps,
    invoice,
    optOuts,
  };
}

const NO_SWAPS: OrderSwaps = { replaced: 0, notReplaced: 0, latest: [] };

/** The summary of the order a download key names; 404 (and an unknown lookup counted) otherwise. */
export async function orderSummary(key: string, caller: Caller): Promise<OrderSummary> {
  const order = await findByKey(key, caller);
  if (!order) throw notFound("Order not found");
  if (!order.paidAt) return toOrderSummary(order, null, NO_SWAPS, null, 0);
  const [replacement, swaps, invoice, optOuts] = await Promise.all([
    replacementOf(order.id),
    swapsOf([order.id]),
    invoiceOf(order.id),
    optOutCounts([order.id]),
  ]);
  return toOrderSummary(order, replacement, swaps.get(order.id)!, invoice, optOuts.get(order.id)!);
}

/** The order's accepted claim, or null. */
export async function replacementOf(orderId: string): Promise<ReplacementSummary | null> {
  const claim = await db().replacementClaim.findUnique({
    where: { orderId },
    select: replacementSummarySelect,
  });
  return claim && toReplacementSummary(claim);
}

/** What a claim's summary reads: its held rows counted from their reports' flags. */
export const replacementSummarySelect = {
  reported: true,
  counted: true,
  replaced: true,
  shortfall: true,
  declined: true,
  createdAt: true,
  _count: { select: { reports: { where: { held: true } } } },
} as const;

export function toReplacementSummary(claim: {
  reported: number;
  counted: number;
  replaced: number;
  shortfall: number;
  declined: number;
  createdAt: Date;
  _count: { reports: number };
}): ReplacementSummary {
  return {
    reported: claim.reported,
    counted: claim.counted,
    replaced: claim.replaced,
    shortfall: claim.shortfall,
    heldForReview: claim._count.reports,
    declined: claim.declined,
    claimedAt: claim.createdAt.toISOString(),
  };
}
