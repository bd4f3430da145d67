import "server-only";
import { z } from "zod";
import { AppError, conflict, notFound } from "@/lib/errors";
import { assertWithinLimit, takeToken } from "@/lib/limits/throttle";
import { categoryHref, DEFAULT_LOCATION, LOCATION_NAMES, type Location } from "@/lib/categories/location";
import { db, transaction } from "@/lib/db";
import { env } from "@/lib/env";
import { findCategory } from "@/lib/categories/public";
import { DOWNLOAD_KEY_PATTERN } from "@/lib/orders/key";
import { orderViewSelect, toOrderView, type OrderView } from "@/lib/orders/view";
import { getPackage, type PackageId } from "@/lib/packages";
import { getPaymentProvider } from "@/lib/payments";
import { ProviderError, type PaymentProvider, type ProviderPayment } from "@/lib/payments/provider";
import { applyPayment, recordEvent } from "@/lib/orders/settle";
import { isFinalStatus } from "@/lib/orders/status";

// Orders and their payments. "Paid" is represented by `paidAt` being set (with `status` holding the
// provider's status as-is, e.g. confirmed or finished); everything else is unpaid.
//
// An order is named three ways: its download key (the buyer's secret: downloads, order page,
// status), the provider's invoice id and the provider's payment id (NP_id). Provider ids are
// guessable (large increasing numbers), so they answer status and amount only, never a download,
// and only once stored (by a callback, or by the returning tab's key + NP_id).

type OrderWhere =
  { id: string } | { downloadKey: string } | { providerPaymentId: string } | { invoiceId: string };

async function findOrder(where: OrderWhere): Promise<OrderView | null> {
  const row = await db().order.findUnique({ where, select: orderViewSelect });
  return row ? toOrderView(row) : null;
}

/** Where the provider sends the buyer back: the category page, which finds the order by its key. */
export function returnUrlFor(
  categoryId: string,
  packageType: PackageId,
  downloadKey: string,
  location: Location = DEFAULT_LOCATION,
): string {
  return `${env().PUBLIC_BASE_URL}${categoryHref(categoryId, location, packageType)}&order=${downloadKey}`;
}

// ---- Limits (docs/product-rules.md) ----

/** The caller as far as limits are concerned. */
export type Caller = { clientIp: string };

const UNKNOWN_LOOKUPS = { max: 30, windowSeconds: 600 };
const ORDER_WINDOW_SECONDS = 600;
const PROVIDER_CALL_SECONDS = 60;

/** Counts a lookup of an id we do not know; 429 once an address made 30 in 10 minutes. */
async function countUnknownLookup(caller: Caller): Promise<void> {
  await assertWithinLimit(
    { bucket: `unknown-id:${caller.clientIp}`, ...UNKNOWN_LOOKUPS },
    "Too many lookups of unknown orders from your address. Please try again later.",
  );
}

/** At most one provider call per id a minute, whoever asks. */
async function mayAskProvider(paymentId: string): Promise<boolean> {
  const retryAfter = await takeToken({
    bucket: `provider-call:${paymentId}`,
    max: 1,
    windowSeconds: PROVIDER_CALL_SECONDS,
  });
  return retryAfter === null;
}

// ---- Creating an order ----

const NOT_CONFIGURED =
  "Payments are not configured: the store owner must add a NOWPayments API key in Settings (or set NOWPAYMENTS_API_KEY).";

// An open checkout of the same browser, category and package is handed back instead of a new
// invoice while it can still be paid: nothing paid, no payment started, younger than a day.
const REUSABLE_FOR_MS = 24 * 3600 * 1000;

export type CreatePaymentInput = {
  categoryId: string;
  packageType: PackageId;
  location?: Location;
  email?: string;
};
export type CreatePaymentAnswer = { success: true; paymentId: string; invoiceUrl: string };

/**
 * Records the order, then asks the provider for an invoice. Price and lead count come from the
 * package table only. A provider failure leaves the order as status "error" with `lastError` set
 * (never half-written with an invoice) and answers 502; the buyer simply tries again.
 * `paymentId` in the answer is the order's download key, never a provider id.
 */
export async function createPayment(
  input: CreatePaymentInput,
  caller: Caller & { browserId: string },
): Promise<CreatePaymentAnswer> {
  const pkg = getPackage(input.packageType)!;
  const location = input.location ?? DEFAULT_LOCATION;
  // Only public categories sell, and only as many leads as the chosen country holds.
  const category = await findCategory(input.categoryId);
  if (!category) throw notFound("Category not found");
  const available = category.countByLocation[location];
  if (available < pkg.leadCount) {
    const where = location === DEFAULT_LOCATION ? "" : ` in the ${LOCATION_NAMES[location]}`;
    throw conflict(
      `${category.title} has ${available.toLocaleString("en-US")} leads${where}, fewer than the ${pkg.leadsLabel} the ${pkg.name} package includes. Choose a smaller package or request custom leads.`,
    );
  }
  const provider = await getPaymentProvider();
  if (!provider) throw new AppError(503, NOT_CONFIGURED);

  const open = await db().order.findFirst({
    where: {
      browserId: caller.browserId,
      categoryId: category._id,
      packageType: pkg.id,
      location,
      paidAt: null,
      providerPaymentId: null,
      status: { in: ["pending", "waiting"] },
      invoiceUrl: { not: null },
      createdAt: { gt: new Date(Date.now() - REUSABLE_FOR_MS) },
    },
    orderBy: { createdAt: "desc" },
    select: { id: true, downloadKey: true, invoiceUrl: true },
  });
  if (open) {
    if (input.email) await db().order.update({ where: { id: open.id }, data: { buyerEmail: input.email } });
    return { success: true, paymentId: open.downloadKey, invoiceUrl: open.invoiceUrl! };
  }

  const limit = env().ORDER_CREATE_LIMIT;
  if (limit > 0) {
    await assertWithinLimit(
      { bucket: `create-order:${caller.clientIp}`, max: limit, windowSeconds: ORDER_WINDOW_SECONDS },
      "Too many orders from your address. Please complete an open payment or try again in a few minutes.",
    );
  }
  const order = await db().order.create({
    data: {
      categoryId: category._id,
      leadTitle: category.title,
      packageType: pkg.id,
      leadCount: pkg.leadCount,
      location,
      amount: pkg.price,
      currency: "usd",
      buyerEmail: input.email ?? null,
      browserId: caller.browserId,
      clientIp: caller.clientIp,
      events: { create: { status: "pending", note: "Order created" } },
    },
    select: { id: true, downloadKey: true },
  });
  const returnUrl = returnUrlFor(category._id, pkg.id, order.downloadKey, location);
  let invoice;
  try {
    invoice = await provider.createInvoice({
      orderId: order.id,
      priceAmount: pkg.price,
      priceCurrency: "usd",
      description: `${category.title} - ${pkg.name} package (${pkg.leadCount} leads${location === DEFAULT_LOCATION ? "" : `, ${location}`})`,
      successUrl: returnUrl,
      cancelUrl: `${returnUrl}&cancelled=1`,
      ipnCallbackUrl: `${env().PUBLIC_BASE_URL}/api/payment/ipn`,
    });
  } catch (error) {
    const message = (error as Error).message;
    console.error(`[payments] invoice for order ${order.id} failed: ${message}`);
    await db().order.update({
      where: { id: order.id },
      data: { status: "error", lastError: message, events: { create: { status: "error", note: message } } },
    });
    throw new AppError(502, "The payment provider could not create an invoice. Please try again.");
  }
  await db().order.update({
    where: { id: order.id },
    data: { invoiceId: invoice.invoiceId, invoiceUrl: invoice.invoiceUrl },
  });
  return { success: true, paymentId: order.downloadKey, invoiceUrl: invoice.invoiceUrl };
}

// ---- Learning what the provider knows ----

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

/**
 * Applies a provider payment to the order it names, when that order is ours and (where both say)
 * came from the same invoice. Answers the order's id, or null when the payment is not ours.
 */
async function applyToItsOrder(payment: ProviderPayment): Promise<string | null> {
  // Only a UUID can name one of our orders; anything else would not even reach the uuid column.
  const orderId = z.uuid().safeParse(payment.orderId);
  if (!orderId.success) return null;
  const order = await findOrder({ id: orderId.data });
  if (!order) return null;
  if (order.invoiceId && payment.invoiceId && order.invoiceId !== payment.invoiceId) return null;
  await applyPayment(order.id, payment);
  return order.id;
}

/**
 * Asks the provider about the NP_id a returning tab brought with its key (at most once a minute per
 * id). Answers the payment, or null when the provider does not know it or was asked too recently.
 */
async function fetchReturnedPayment(
  provider: PaymentProvider,
  paymentId: string,
): Promise<ProviderPayment | null> {
  if (!provider.isPaymentIdShape(paymentId) || !(await mayAskProvider(paymentId))) return null;
  try {
    return await provider.getPayment(paymentId);
  } catch (error) {
    if (error instanceof ProviderError && error.kind === "not_found") return null;
    console.error(`[payments] looking up a returned payment failed: ${(error as Error).message}`);
    throw new AppError(502, "The payment provider could not be reached. Please try again in a moment.");
  }
}

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
 * provider. `returnedPaymentId` is the NP_id a returning tab carries with the key: the provider
 * is asked about it and it is kept only when the provider says it pays this very order (same
 * order id and, when reported, the same invoice).
 * An id we have never seen is answered from the database alone and costs the caller one of their
 * unknown lookups: the provider is only ever asked about payment ids tied to a known order, so
 * walking ids costs no provider calls at all.
 */
export async function resolveOrder(
  id: string,
  caller: Caller,
  returnedPaymentId?: string,
): Promise<OrderView | null> {
  const known = await findForStatus(id);
  if (!known) {
    await countUnknownLookup(caller);
    return null;
  }
  if (isFinalStatus(known.status, known.paidAt !== null)) return known;
  const provider = await getPaymentProvider();
  if (!provider) return known;
  if (returnedPaymentId && !known.providerPaymentId && known.downloadKey === id) {
    const payment = await fetchReturnedPayment(provider, returnedPaymentId);
    if (payment?.orderId !== known.id) return known;
    await applyToItsOrder(payment);
    return findOrder({ id: known.id });
  }
  return refreshFromProvider(known, provider);
}

export type PaymentStatusAnswer = { success: true; status: string; amount: number; paid: boolean };

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
    status: order.status,
    amount: paid ? order.amount : (order.actuallyPaidFiat ?? 0),
    paid,
  };
}

/** Handles a verified provider callback. Unknown orders are acknowledged and ignored. */
export async function handleCallback(payment: ProviderPayment): Promise<boolean> {
  return (await applyToItsOrder(payment)) !== null;
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
  if (!order.paidAt && !isFinalStatus(order.status, false)) {
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
