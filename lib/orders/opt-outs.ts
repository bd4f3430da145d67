import "server-only";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { Caller } from "@/lib/limits/caller";
import { findByKey } from "@/lib/orders/access";
import type { OrderOptOuts } from "@/lib/schemas/orders";

// Opt-outs reach earlier buyers (docs/product-rules.md, "UK compliance"): a person an order
// delivered who is erased later leaves its file (the erasure, lib/privacy/requests.ts, records them
// against the order first); the order's holder gets the SHA-256 of their normalised email, to
// suppress them in their own CRM.

/** How many people each order delivered were erased since its purchase. */
export async function optOutCounts(orderIds: string[]): Promise<Map<string, number>> {
  const counts = new Map(orderIds.map((id) => [id, 0]));
  if (orderIds.length === 0) return counts;
  const rows = await db().orderOptOut.groupBy({
    by: ["orderId"],
    where: { orderId: { in: orderIds } },
    _count: { _all: true },
  });
  for (const row of rows) counts.set(row.orderId, row._count._all);
  return counts;
}

/** The opt-outs of the paid order a download key names, oldest first; 404 otherwise. */
export async function orderOptOuts(key: string, caller: Caller): Promise<OrderOptOuts> {
  const order = await findByKey(key, caller);
  if (!order?.paidAt) throw notFound("Order not found");
  const rows = await db().orderOptOut.findMany({
    where: { orderId: order.id },
    orderBy: [{ optedOutAt: "asc" }, { emailHash: "asc" }],
    select: { emailHash: true, optedOutAt: true },
  });
  return {
    count: rows.length,
    optOuts: rows.map((row) => ({ sha256: row.emailHash, at: row.optedOutAt.toISOString() })),
  };
}
