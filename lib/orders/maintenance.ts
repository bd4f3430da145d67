import "server-only";
import { pruneThrottleEvents } from "@/lib/api/throttle";
import { db, withTransaction } from "@/lib/db";
import { getPaymentProvider } from "@/lib/payments";
import { CLOSED_STATUSES } from "@/lib/orders/status";
import { orderViewSelect, refreshFromProvider, toOrderView } from "@/lib/orders/checkout";

// Background upkeep of orders: abandoned checkouts expire, and orders whose payment the provider
// knows are re-checked, because callbacks can be lost (or never reach a local install).

const PENDING_HOURS = 24;
const RECHECK_MINUTES = 3;
const RECHECK_BATCH = 100;

/** Unpaid orders older than 24 hours with nothing received become `expired`. Answers how many. */
export async function expireStaleOrders(now = new Date()): Promise<number> {
  return withTransaction(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `UPDATE orders SET status = 'expired', updated_at = now()
        WHERE paid_at IS NULL AND status IN ('pending', 'waiting')
          AND COALESCE(actually_paid, 0) = 0
          AND created_at < $1::timestamptz - make_interval(hours => $2)
        RETURNING id`,
      [now, PENDING_HOURS],
    );
    if (rows.length > 0) {
      await client.query(
        `INSERT INTO order_events (order_id, status, note)
         SELECT id, 'expired', 'Nothing paid within 24 hours' FROM unnest($1::uuid[]) AS id`,
        [rows.map((row) => row.id)],
      );
    }
    return rows.length;
  });
}

/**
 * Re-checks unpaid orders with a known provider payment id, younger than a day, not checked in the
 * last few minutes. Answers how many were asked about.
 */
export async function reconcilePendingOrders(now = new Date()): Promise<number> {
  const provider = await getPaymentProvider();
  if (!provider) return 0;
  const since = new Date(now.getTime() - PENDING_HOURS * 3600 * 1000);
  const checkedBefore = new Date(now.getTime() - RECHECK_MINUTES * 60 * 1000);
  const rows = await db().order.findMany({
    where: {
      paidAt: null,
      providerPaymentId: { not: null },
      createdAt: { gt: since },
      status: { notIn: [...CLOSED_STATUSES] },
      OR: [{ checkedAt: null }, { checkedAt: { lt: checkedBefore } }],
    },
    orderBy: { createdAt: "asc" },
    take: RECHECK_BATCH,
    select: orderViewSelect,
  });
  for (const row of rows) await refreshFromProvider(toOrderView(row), provider);
  return rows.length;
}

export async function runOrderMaintenance(now = new Date()): Promise<void> {
  await expireStaleOrders(now);
  await reconcilePendingOrders(now);
  await pruneThrottleEvents();
}

const INTERVAL_MS = RECHECK_MINUTES * 60 * 1000;
const globalForMaintenance = globalThis as unknown as { orderMaintenance?: ReturnType<typeof setInterval> };

/** Runs the upkeep every few minutes in this server process (once per process). */
export function startOrderMaintenance(): void {
  if (globalForMaintenance.orderMaintenance) return;
  const tick = () =>
    runOrderMaintenance().catch((error: Error) =>
      console.error(`[orders] maintenance failed: ${error.message}`),
    );
  globalForMaintenance.orderMaintenance = setInterval(tick, INTERVAL_MS);
  globalForMaintenance.orderMaintenance.unref();
}
