import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { db } from "@/lib/db";
import type { Caller } from "@/lib/limits/caller";
import { countUnknownLookup, mayAskProvider, mayLookUpUnseen } from "@/lib/orders/limits";
import { getPaymentProvider } from "@/lib/payments";
import { applyPayment } from "@/lib/orders/settle";
import { findOrder, type OrderView } from "@/lib/orders/view";
import { ProviderError, type PaymentProvider, type ProviderPayment } from "@/lib/payments/provider";

// What the provider knows about our orders' payments: callbacks, status checks of a stored payment
// id, and lookups of payment ids we have not stored yet (an NP_id asked about alone, one a returning
// tab brings with the order's key, one the admin gives). Whatever the route, a payment changes an
// order only through applyPayment, under the same rules.

/** Whether a provider payment is for this order: its order_id (or, without one, its invoice_id). */
function pays(payment: ProviderPayment, order: OrderView): boolean {
  const byOrder = payment.orderId
    ? payment.orderId === order.id
    : payment.invoiceId !== null && payment.invoiceId === order.invoiceId;
  // Where both name an invoice, it must be the order's own.
  const sameInvoice = !order.invoiceId || !payment.invoiceId || order.invoiceId === payment.invoiceId;
  return byOrder && sameInvoice;
}

/** The order a provider payment is for, or null when it is none of ours. */
async function orderOf(payment: ProviderPayment): Promise<OrderView | null> {
  let order: OrderView | null = null;
  if (payment.orderId) {
    // Only a UUID can name one of our orders; anything else would not even reach the uuid column.
    const orderId = z.uuid().safeParse(payment.orderId);
    if (orderId.success) order = await findOrder({ id: orderId.data });
  } else if (payment.invoiceId) {
    order = await findOrder({ invoiceId: payment.invoiceId });
  }
  return order && pays(payment, order) ? order : null;
}

/** Applies a provider payment to its order. Answers the order's id, or null when it is not ours. */
async function applyToItsOrder(payment: ProviderPayment): Promise<string | null> {
  const order = await orderOf(payment);
  if (!order) return null;
  await applyPayment(order.id, payment);
  return order.id;
}

/** Handles a verified provider callback. Unknown orders are acknowledged and ignored. */
export async function handleCallback(payment: ProviderPayment): Promise<boolean> {
  return (await applyToItsOrder(payment)) !== null;
}

/** Asks the provider about the order's payment (at most once a minute) and stores what it says. */
export async function refreshFromProvider(order: OrderView, provider: PaymentProvider): Promise<OrderView> {
  if (!order.providerPaymentId || !(await mayAskProvider(order.providerPaymentId))) return order;
  try {
    const payment = await provider.getPayment(order.providerPaymentId);
    await db().order.update({ where: { id: order.id }, data: { checkedAt: new Date() } });
    if (payment.orderId !== order.id) return order;
    await applyPayment(order.id, payment);
    return (await findOrder({ id: order.id })) ?? order;
  } catch (error) {
    // The stored state stays valid; the next check (or callback) tries again.
    const message = (error as Error).message;
    console.error(`[payments] status of order ${order.id} not refreshed: ${message}`);
    await db().order.update({ where: { id: order.id }, data: { lastError: message, checkedAt: new Date() } });
    return order;
  }
}

/** The provider's payment of this id, or null when it does not know it; 502 when it cannot be asked. */
async function fetchPayment(provider: PaymentProvider, paymentId: string): Promise<ProviderPayment | null> {
  try {
    return await provider.getPayment(paymentId);
  } catch (error) {
    if (error instanceof ProviderError && error.kind === "not_found") return null;
    console.error(`[payments] looking up a payment failed: ${(error as Error).message}`);
    throw new AppError(502, "The payment provider could not be reached. Please try again in a moment.");
  }
}

/**
 * A payment id we have not stored, asked about alone (the spec's client polls by NP_id): looked up
 * at the provider within the bounds of mayLookUpUnseen and applied to the order it is for. Answers
 * that order, or null (and one unknown lookup counted) when it is none of ours, the provider does
 * not know it, or the bounds leave it unasked.
 */
export async function lookUpPaymentId(paymentId: string, caller: Caller): Promise<OrderView | null> {
  const provider = await getPaymentProvider();
  const payment =
    provider?.isPaymentIdShape(paymentId) && (await mayLookUpUnseen(paymentId, caller))
      ? await fetchPayment(provider, paymentId)
      : null;
  const orderId = payment && (await applyToItsOrder(payment));
  if (!orderId) {
    await countUnknownLookup(caller);
    return null;
  }
  return findOrder({ id: orderId });
}

/**
 * The NP_id a returning tab brings with the order's key: looked up (at most 3 per order, and within
 * the other bounds) and applied only when the provider says it pays this very order. Anything else
 * counts as an unknown lookup and changes nothing. Answers the order as it now stands.
 */
export async function lookUpReturnedPayment(
  order: OrderView,
  paymentId: string,
  caller: Caller,
  provider: PaymentProvider,
): Promise<OrderView> {
  const payment =
    provider.isPaymentIdShape(paymentId) && (await mayLookUpUnseen(paymentId, caller, order.id))
      ? await fetchPayment(provider, paymentId)
      : null;
  if (!payment || !pays(payment, order)) {
    await countUnknownLookup(caller);
    return order;
  }
  await applyPayment(order.id, payment);
  return (await findOrder({ id: order.id })) ?? order;
}

/**
 * The admin's Recheck of an order whose payment id was never stored (a cancelled checkout paid
 * later, without callbacks): the payment id the buyer or the provider's dashboard gives is applied
 * when the provider says it pays this order's invoice. Answers whether it did.
 */
export async function applyGivenPayment(
  order: OrderView,
  paymentId: string,
  provider: PaymentProvider,
): Promise<boolean> {
  const payment = provider.isPaymentIdShape(paymentId) ? await fetchPayment(provider, paymentId) : null;
  if (!payment || payment.invoiceId !== order.invoiceId || !pays(payment, order)) return false;
  await applyPayment(order.id, payment);
  return true;
}
