import "server-only";
import type { PoolClient } from "pg";
import { withTransaction } from "@/lib/db";
import { DOWNLOAD_DAYS } from "@/lib/orders/links";
import { queueReceipt } from "@/lib/orders/receipt";
import { queueSaleNotification } from "@/lib/orders/sale-notification";
import type { ProviderPayment } from "@/lib/payments/provider";
import { isPaidStatus, statusRank } from "@/lib/orders/status";

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

type LockedOrder = {
  id: string;
  category_id: string;
  lead_title: string;
  package_type: string;
  lead_count: number;
  location: string;
  amount: string;
  currency: string;
  status: string;
  paid_at: Date | null;
  buyer_email: string | null;
};

type Queryable = Pick<PoolClient, "query">;

/** Adds a line to the order's status history (the admin's order detail). */
export async function recordEvent(
  client: Queryable,
  orderId: string,
  status: string,
  note = "",
): Promise<void> {
  await client.query("INSERT INTO order_events (order_id, status, note) VALUES ($1, $2, $3)", [
    orderId,
    status,
    note,
  ]);
}

// Keeps a payment id on the order unless another order already holds it (the unique index would
// otherwise abort the whole update).
const PAYMENT_ID_SQL = `CASE WHEN EXISTS (SELECT 1 FROM orders other WHERE other.provider_payment_id = $3 AND other.id <> $1)
  THEN provider_payment_id ELSE $3 END`;

// What the provider reports as received is kept as last reported, whatever the status.
const RECEIVED_SQL = `pay_currency = COALESCE($6, pay_currency), actually_paid = COALESCE($7, actually_paid),
  actually_paid_at_fiat = COALESCE($8, actually_paid_at_fiat)`;

function receivedParams(payment: ProviderPayment): (string | number | null)[] {
  return [payment.payCurrency, payment.actuallyPaid, payment.actuallyPaidFiat];
}

/**
 * Applies what the provider says about a payment of this order, under a row lock so concurrent
 * callbacks and status checks serialise. Monotonic: a paid order never changes back, and an unpaid
 * one never moves to an earlier status. The first confirmation allocates the order's leads (most
 * recently verified first, of the order's country), opens its download window and queues the admin's notification and the
 * buyer's receipt in the same transaction, so the mails exist exactly when the sale does.
 * The caller has checked that `payment.orderId` is this order.
 */
export async function applyPayment(orderId: string, payment: ProviderPayment): Promise<void> {
  await withTransaction(async (client): Promise<void> => {
    const { rows } = await client.query<LockedOrder>(
      `SELECT id, category_id, lead_title, package_type, lead_count, location::text, amount::text, currency, status, paid_at,
              buyer_email
       FROM orders WHERE id = $1 FOR UPDATE`,
      [orderId],
    );
    const order = rows[0];
    if (!order) return;
    if (order.paid_at) {
      // Only moves between paid values (confirmed -> sending -> finished); nothing else touches a sale.
      if (isPaidStatus(payment.status) && statusRank(payment.status) > statusRank(order.status)) {
        await client.query("UPDATE orders SET status = $2, updated_at = now() WHERE id = $1", [
          orderId,
          payment.status,
        ]);
        await recordEvent(client, orderId, payment.status);
      }
      return;
    }
    const { paid, problem } = paymentCovers(payment, {
      amount: Number(order.amount),
      currency: order.currency,
    });
    if (paid) {
      await client.query(
        `UPDATE orders SET status = $2, provider_payment_id = ${PAYMENT_ID_SQL}, paid_amount = $4,
           paid_at = now(), download_expires_at = now() + make_interval(days => $5), last_error = NULL,
           ${RECEIVED_SQL}, updated_at = now() WHERE id = $1`,
        [
          orderId,
          payment.status,
          payment.paymentId,
          payment.priceAmount,
          DOWNLOAD_DAYS,
          ...receivedParams(payment),
        ],
      );
      await recordEvent(client, orderId, payment.status, "Paid");
      const allocated = await client.query(
        `INSERT INTO order_leads (order_id, position, lead_id)
         SELECT $1, row_number() OVER (ORDER BY verified_at DESC, id), id
         FROM (SELECT id, verified_at FROM leads WHERE category_id = $2 AND country = $4::"Country"
               ORDER BY verified_at DESC, id LIMIT $3) AS chosen`,
        [orderId, order.category_id, order.lead_count, order.location],
      );
      if ((allocated.rowCount ?? 0) < order.lead_count) {
        // Leads were removed between sale and payment: deliver what exists and tell the admin.
        await client.query("UPDATE orders SET last_error = $2 WHERE id = $1", [
          orderId,
          `Only ${allocated.rowCount} of ${order.lead_count} leads were available at payment`,
        ]);
      }
      await queueSaleNotification(client, {
        id: order.id,
        leadTitle: order.lead_title,
        packageType: order.package_type,
        leadCount: order.lead_count,
        amount: order.amount,
        currency: order.currency,
      });
      if (order.buyer_email) await queueReceipt(client, orderId);
      return;
    }
    // A paid status that does not pay for the order (too little arrived, another currency) is
    // kept as partially_paid, so that no one reads the order as paid; the reason goes to the admin.
    const status = problem ? UNCOVERED_STATUS : payment.status;
    if (statusRank(status) >= statusRank(order.status)) {
      await client.query(
        `UPDATE orders SET status = $2, provider_payment_id = ${PAYMENT_ID_SQL}, paid_amount = $4,
           last_error = $5, ${RECEIVED_SQL}, updated_at = now() WHERE id = $1`,
        [orderId, status, payment.paymentId, payment.priceAmount, problem, ...receivedParams(payment)],
      );
      if (status !== order.status) await recordEvent(client, orderId, status, problem ?? "");
    }
  });
}
