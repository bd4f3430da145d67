import "server-only";
import { pruneThrottleEvents } from "@/lib/limits/throttle";
import { pruneLoginAttempts } from "@/lib/auth/login";
import { pruneCustomRequestCounts } from "@/lib/custom-requests/rate-limit";
import { pruneStagedFiles } from "@/lib/custom-requests/staged-files";
import { db, transaction } from "@/lib/db";
import { runRechecks } from "@/lib/leads/recheck";
import { getPaymentProvider } from "@/lib/payments";
import { expirePrivacyRequests } from "@/lib/privacy/requests";
import { FINAL_UNPAID_STATUSES } from "@/lib/payments/status";
import { refreshFromProvider } from "@/lib/orders/sync";
import { healOrders } from "@/lib/orders/heal";
import { deleteExpiredLists } from "@/lib/suppression/lists";
import { orderViewSelect, toOrderView } from "@/lib/orders/view";

// Background upkeep of orders: abandoned checkouts expire, and orders whose payment the provider
// knows are re-checked, because callbacks can be lost (or never reach a local install).

const PENDING_HOURS = 24;
const RECHECK_MINUTES = 3;
const RECHECK_BATCH = 100;

/** Unpaid orders older than 24 hours with nothing received become `expired`. Answers how many. */
export async function expireStaleOrders(now = new Date()): Promise<number> {
  return transaction(async (tx) => {
    const expired = await tx.order.updateManyAndReturn({
      where: {
        paidAt: null,
        status: { in: ["pending", "waiting"] },
        OR: [{ actuallyPaid: null }, { actuallyPaid: 0 }],
        createdAt: { lt: new Date(now.getTime() - PENDING_HOURS * 3600 * 1000) },
      },
      data: { status: "expired" },
      select: { id: true },
    });
    await tx.orderEvent.createMany({
      data: expired.map(({ id }) => ({
        orderId: id,
        status: "expired",
        note: "Nothing paid within 24 hours",
      })),
    });
    return expired.length;
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
      // A cancelled checkout's invoice can still be paid: it is re-checked like any other.
      status: { notIn: [...FINAL_UNPAID_STATUSES] },
      OR: [{ checkedAt: null }, { checkedAt: { lt: checkedBefore } }],
    },
    orderBy: { createdAt: "asc" },
    take: RECHECK_BATCH,
    select: orderViewSelect,
  });
  for (const row of rows) await refreshFromProvider(toOrderView(row), provider);
  return rows.length;
}

/**
 * The periodic upkeep, every few minutes: orders (their files' invalid rows healed too) and privacy
 * requests, the old rows of the limits, the chunks of uploads never stored, and exclusion lists
 * nothing needs any more.
 */
export async function runOrderMaintenance(now = new Date()): Promise<void> {
  await expireStaleOrders(now);
  await expirePrivacyRequests(now);
  await reconcilePendingOrders(now);
  await healOrders(now);
  await pruneThrottleEvents();
  await pruneLoginAttempts();
  await pruneCustomRequestCounts();
  await pruneStagedFiles();
  await deleteExpiredLists(now);
}

const INTERVAL_MS = RECHECK_MINUTES * 60 * 1000;
const globalForMaintenance = globalThis as unknown as { orderMaintenance?: ReturnType<typeof setInterval> };

/** Runs the upkeep (and the leads' re-checks) every few minutes in this server process (once per process). */
export function startOrderMaintenance(): void {
  if (globalForMaintenance.orderMaintenance) return;
  const tick = () => {
    runOrderMaintenance().catch((error: Error) =>
      console.error(`[orders] maintenance failed: ${error.message}`),
    );
    // The leads' re-checks (docs/product-rules.md, "Verification") can outlast a tick: a run still
    // going is left to finish.
    runRechecks().catch((error: Error) => console.error(`[leads] re-checks failed: ${error.message}`));
  };
  globalForMaintenance.orderMaintenance = setInterval(tick, INTERVAL_MS);
  globalForMaintenance.orderMaintenance.unref();
}
