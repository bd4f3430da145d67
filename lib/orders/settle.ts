import "server-only";
import type { EmailQuality } from "@/lib/email-quality";
import { transaction, type Tx } from "@/lib/db";
import type { Location } from "@/lib/location";
import type { Segment } from "@/lib/segments/vocabularies";
import { allocationInsert, prepareAllocation } from "@/lib/leads/allocation";
import { orderViewSelect } from "@/lib/orders/view";
import { DOWNLOAD_DAYS } from "@/lib/orders/links";
import { queueReceipt, queueSaleNotification } from "@/lib/orders/notify";
import type { ProviderPayment } from "@/lib/payments/provider";
import { isPaidStatus, statusRank } from "@/lib/payments/status";
import { REPLACEMENT_DAYS } from "@/lib/schemas/orders";
import { orderList } from "@/lib/suppression/lists";

const UNCOVERED_STATUS = "partially_paid";

/**
 * Whether a provider payment pays for an order.
 *
 * The invoice is priced in USD, so the value to compare with the package price is the provider's
 * `price_amount` in `price_currency` (the fiat price the payment settles). The provider only reports
 * confirmed/finished once the crypto `pay_amount` for that price has arrived (less is
 * `partially_paid`), and we double-check that `actually_paid >= pay_amount` when both are reported.
 * `actually_paid_at_fiat` is stored but not used here: it moves with the exchange rate and would
 * refuse full payments by a few cents.
 */
export function paymentCovers(
  payment: ProviderPayment,
  order: { amount: number; currency: string },
): { paid: boolean; problem: string | null } {
  if (!isPaidStatus(payment.status)) return { paid: false, problem: null };
  if (payment.priceCurrency !== null && payment.priceCurrency !== order.currency) {
    return { paid: false, problem: `Paid in ${payment.priceCurrency}, expected ${order.currency}` };
  }
  if (payment.priceAmount === null || payment.priceAmount < order.amount) {
    return {
      paid: false,
      problem: `Paid value ${payment.priceAmount ?? "unknown"} is below the price ${order.amount}`,
    };
  }
  if (
    payment.payAmount !== null &&
    payment.actuallyPaid !== null &&
    payment.actuallyPaid < payment.payAmount
  ) {
    return { paid: false, problem: `Received ${payment.actuallyPaid} of ${payment.payAmount} in crypto` };
  }
  return { paid: true, problem: null };
}

/** Adds a line to the order's status history (the admin's order detail). */
export async function recordEvent(tx: Tx, orderId: string, status: string, note = ""): Promise<void> {
  await tx.orderEvent.create({ data: { orderId, status, note }, select: { id: true } });
}

/**
 * The order's leads, allocated once at its first payment (lib/leads/allocation.ts): sellable leads
 * of the order's country, least sold first, none its buyer's email bought before, none its
 * exclusion list names (kept for the replacement window). Answers how many were allocated.
 */
export async function allocateLeads(
  tx: Tx,
  order: {
    id: string;
    categoryId: string;
    leadCount: number;
    location: Location;
    segment: Segment | null;
    emailQuality?: EmailQuality;
    buyerEmail: string | null;
    suppressionListId: string | null;
  },
): Promise<number> {
  const filter = {
    categoryId: order.categoryId,
    country: order.location,
    segment: order.segment,
    emailQuality: order.emailQuality,
  };
  const buyer = order.buyerEmail;
  const keepUntil = new Date(Date.now() + REPLACEMENT_DAYS * 86_400_000);
  const notListed = await orderList(tx, order.suppressionListId, keepUntil);
  await prepareAllocation(tx, order.categoryId);
  const allocated = await tx.$executeRaw(
    allocationInsert(
      order.id,
      { ...filter, ...(buyer ? { boughtBy: buyer } : {}), notListed },
      order.leadCount,
    ),
  );
  return allocated;
}

/**
 * What the provider reports, as columns: the payment id unless another order already holds it
 * (the unique index would abort the whole update), and what was received as last reported.
 */
async function reportedFields(tx: Tx, orderId: string, payment: ProviderPayment) {
  const holder = await tx.order.findFirst({
    where: { providerPaymentId: payment.paymentId, id: { not: orderId } },
    select: { id: true },
  });
  return {
    ...(holder ? {} : { providerPaymentId: payment.paymentId }),
    paidAmount: payment.priceAmount,
    ...(payment.payCurrency !== null ? { payCurrency: payment.payCurrency } : {}),
    ...(payment.actuallyPaid !== null ? { actuallyPaid: payment.actuallyPaid } : {}),
    ...(payment.actuallyPaidFiat !== null ? { actuallyPaidFiat: payment.actuallyPaidFiat } : {}),
  };
}

/**
 * Applies what the provider says about a payment of this order, under a row lock so concurrent
 * callbacks and status checks serialise. Monotonic: a paid order never changes back, and an unpaid
 * one never moves to an earlier status. The first confirmation allocates the order's leads (least
 * sold first), opens its download window and queues the admin's notification and the buyer's
 * receipt in the same transaction, so the mails exist exactly when the sale does.
 * The caller has checked that `payment.orderId` is this order.
 */
export async function applyPayment(orderId: string, payment: ProviderPayment): Promise<void> {
  await transaction(async (tx): Promise<void> => {
    await tx.$executeRaw`SELECT 1 FROM orders WHERE id = ${orderId}::uuid FOR UPDATE`;
    const order = await tx.order.findUnique({
      where: { id: orderId },
      select: { ...orderViewSelect, buyerEmail: true, suppressionListId: true },
    });
    if (!order) return;
    if (order.paidAt) {
      // Only moves between paid values (confirmed -> sending -> finished); nothing else touches a sale.
      if (isPaidStatus(payment.status) && statusRank(payment.status) > statusRank(order.status)) {
        await tx.order.update({
          where: { id: orderId },
          data: { status: payment.status },
          select: { id: true },
        });
        await recordEvent(tx, orderId, payment.status);
      }
      return;
    }
    const { paid, problem } = paymentCovers(payment, {
      amount: order.amount.toNumber(),
      currency: order.currency,
    });
    if (paid) {
      const now = new Date();
      const allocated = await allocateLeads(tx, {
        ...order,
        segment: order.segment as Segment | null,
      });
      await tx.order.update({
        where: { id: orderId },
        data: {
          ...(await reportedFields(tx, orderId, payment)),
          status: payment.status,
          paidAt: now,
          downloadExpiresAt: new Date(now.getTime() + DOWNLOAD_DAYS * 86_400_000),
          // Leads removed between sale and payment: the order delivers what exists; the admin sees why.
          lastError:
            allocated < order.leadCount
              ? `Only ${allocated} of ${order.leadCount} leads were available at payment`
              : null,
        },
        select: { id: true },
      });
      await recordEvent(tx, orderId, payment.status, "Paid");
      await queueSaleNotification(tx, {
        id: order.id,
        leadTitle: order.leadTitle,
        packageType: order.packageType,
        leadCount: order.leadCount,
        amount: order.amount.toFixed(2),
        currency: order.currency,
      });
      await queueReceipt(tx, orderId);
      return;
    }
    // A paid status that does not pay for the order (too little arrived, another currency) is
    // kept as partially_paid, so that no one reads the order as paid; the reason goes to the admin.
    const status = problem ? UNCOVERED_STATUS : payment.status;
    if (statusRank(status) >= statusRank(order.status)) {
      await tx.order.update({
        where: { id: orderId },
        data: { ...(await reportedFields(tx, orderId, payment)), status, lastError: problem },
        select: { id: true },
      });
      if (status !== order.status) await recordEvent(tx, orderId, status, problem ?? "");
    }
  });
}
