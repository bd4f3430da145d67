import "server-only";
import { AppError, notFound } from "@/lib/errors";
import { transaction } from "@/lib/db";
import { env } from "@/lib/env";
import { DOWNLOAD_KEY_PATTERN } from "@/lib/orders/key";
import type { Caller } from "@/lib/limits/caller";
import { countUnknownLookup } from "@/lib/orders/limits";
import { getPaymentProvider } from "@/lib/payments";
import { recordEvent } from "@/lib/orders/settle";
import { answeredStatus, isFinalStatus } from "@/lib/payments/status";
import { lookUpPaymentId, lookUpReturnedPayment, refreshFromProvider } from "@/lib/orders/sync";
import { findOrder, type OrderView } from "@/lib/orders/view";
import type { PaymentStatusAnswer } from "@/lib/schemas/payment";

// The buyer's ways into an order. "Paid" is represented by `paidAt` being set (with `status`
// holding the provider's status as-is, e.g. confirmed, sending or finished); everything else is
// unpaid.
//
// An order is named three ways: its download key (the buyer's secret: downloads, order page,
// status), the provider's invoice id and the provider's payment id (NP_id). Provider ids are
// guessable (large increasing numbers), so they answer status and amount only, never a download.

/**
 * The order an id names for a status check: a download key, else a provider payment id, else an
 * invoice id. The two provider ids are separate lookups (both are ~10-digit numbers and can be
 * equal); a payment id wins because a returning NP_id is what is asked for most.
 */
async function findForStatus(id: string): Promise<OrderView | null> {
  if (DOWNLOAD_KEY_PATTERN.test(id)) {
    const byKey = await findOrder({ downloadKey: id });
    if (byKey) return byKey;
  }
  return (await findOrder({ providerPaymentId: id })) ?? (await findOrder({ invoiceId: id }));
}

/**
 * Finds the order behind an id and, when it is not final yet, brings it up to date with the
 * provider. An id we have not stored is looked up at the provider as a payment id (bounded, see
 * lookUpPaymentId); one the provider does not tie to an order of ours costs an unknown lookup.
 * `returnedPaymentId` is the NP_id a returning tab carries with the key: it is kept only when the
 * provider says it pays this very order.
 */
async function resolveOrder(
  id: string,
  caller: Caller,
  returnedPaymentId?: string,
): Promise<OrderView | null> {
  const known = await findForStatus(id);
  if (!known) return lookUpPaymentId(id, caller);
  if (isFinalStatus(known.status, known.paidAt !== null)) return known;
  const provider = await getPaymentProvider();
  if (!provider) return known;
  if (returnedPaymentId && !known.providerPaymentId && known.downloadKey === id) {
    return lookUpReturnedPayment(known, returnedPaymentId, caller, provider);
  }
  return refreshFromProvider(known, provider);
}

/**
 * The product's status answer. `amount` is the package price only once the order is paid; before,
 * it is what the provider reports as received in the price currency (0 when nothing), so a
 * partially paid order never reads as paid in full.
 */
export async function paymentStatus(
  id: string,
  caller: Caller,
  returnedPaymentId?: string,
): Promise<PaymentStatusAnswer> {
  const order = await resolveOrder(id, caller, returnedPaymentId);
  if (!order) throw notFound("Payment not found");
  const paid = order.paidAt !== null;
  return {
    success: true,
    status: answeredStatus(order.status, paid),
    amount: paid ? order.amount : (order.actuallyPaidFiat ?? 0),
    paid,
  };
}

/** The order a download key names, or null; anything else (a provider id) costs an unknown lookup. */
export async function findByKey(key: string, caller: Caller): Promise<OrderView | null> {
  const order = DOWNLOAD_KEY_PATTERN.test(key) ? await findOrder({ downloadKey: key }) : null;
  if (!order) await countUnknownLookup(caller);
  return order;
}

/** The paid order a download link stands for, or the 404/402/410 of docs/product-rules.md. */
export async function orderForDownload(key: string, caller: Caller): Promise<OrderView> {
  let order = await findByKey(key, caller);
  if (!order) throw notFound("Payment not found");
  if (!isFinalStatus(order.status, order.paidAt !== null)) {
    const provider = await getPaymentProvider();
    if (provider) order = await refreshFromProvider(order, provider);
  }
  if (!order.paidAt) {
    throw new AppError(
      402,
      "This payment has not been confirmed yet. Check the payment status and try again once it is complete.",
    );
  }
  if (!order.downloadExpiresAt || Date.now() > order.downloadExpiresAt.getTime()) {
    throw new AppError(
      410,
      `This download link has expired. Get a new link at ${env().PUBLIC_BASE_URL}/orders ("Find my orders") with the email address you bought with, or send a custom request from the home page.`,
    );
  }
  return order;
}

/**
 * The buyer left the invoice without paying (the provider's cancel return). Only an order with no
 * payment started can be cancelled; the invoice stays payable and a later payment still counts.
 */
export async function cancelCheckout(key: string, caller: Caller): Promise<PaymentStatusAnswer> {
  const order = await findByKey(key, caller);
  if (!order) throw notFound("Order not found");
  await transaction(async (tx) => {
    const cancelled = await tx.order.updateMany({
      where: { id: order.id, paidAt: null, providerPaymentId: null, status: { in: ["pending", "waiting"] } },
      data: { status: "cancelled" },
    });
    if (cancelled.count > 0) await recordEvent(tx, order.id, "cancelled", "Buyer cancelled the invoice");
  });
  return paymentStatus(key, caller);
}
