import "server-only";
import { z } from "zod";
import { AppError, conflict, notFound } from "@/lib/api/errors";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { getPackage, type PackageId } from "@/lib/packages";
import { getPaymentProvider } from "@/lib/payments";
import { ProviderError, type PaymentProvider, type ProviderPayment } from "@/lib/payments/provider";
import { applyPayment } from "@/lib/payments/settle";
import { isFinalStatus } from "@/lib/payments/status";

// Orders and their payments. "Paid" is represented by `paidAt` being set (with `status` holding the
// provider's status as-is, e.g. confirmed or finished); everything else is unpaid.

const orderSelect = {
  id: true,
  categoryId: true,
  leadTitle: true,
  packageType: true,
  leadCount: true,
  amount: true,
  currency: true,
  status: true,
  invoiceId: true,
  providerPaymentId: true,
  paidAmount: true,
  paidAt: true,
} as const;

export type OrderView = {
  id: string;
  categoryId: string;
  leadTitle: string;
  packageType: PackageId;
  leadCount: number;
  amount: number;
  currency: string;
  status: string;
  invoiceId: string | null;
  providerPaymentId: string | null;
  paidAmount: number | null;
  paidAt: Date | null;
};

async function findOrder(where: { id: string } | { paymentId: string }): Promise<OrderView | null> {
  const row = await db().order.findFirst({
    where:
      "id" in where
        ? { id: where.id }
        : { OR: [{ invoiceId: where.paymentId }, { providerPaymentId: where.paymentId }] },
    select: orderSelect,
  });
  if (!row) return null;
  return {
    ...row,
    amount: Number(row.amount),
    paidAmount: row.paidAmount === null ? null : Number(row.paidAmount),
  };
}

export function returnUrlFor(categoryId: string, packageType: PackageId): string {
  return `${env().PUBLIC_BASE_URL}/category/${categoryId}?package=${packageType}`;
}

const NOT_CONFIGURED =
  "Payments are not configured: the store owner must add a NOWPayments API key in Settings (or set NOWPAYMENTS_API_KEY).";

/**
 * Records the order, then asks the provider for an invoice. Price and lead count come from the
 * package table only. A provider failure leaves the order as status "error" with `lastError` set
 * (never half-written with an invoice) and answers 502; the buyer simply tries again.
 */
export async function createPayment(input: { categoryId: string; packageType: PackageId }) {
  const pkg = getPackage(input.packageType)!;
  const category = await db().category.findUnique({
    where: { id: input.categoryId },
    select: { id: true, title: true, count: true },
  });
  if (!category) throw notFound("Category not found");
  if (category.count < pkg.leadCount) {
    throw conflict(
      `${category.title} has ${category.count.toLocaleString("en-US")} leads, fewer than the ${pkg.leadsLabel} the ${pkg.name} package includes. Choose a smaller package or request custom leads.`,
    );
  }
  const provider = await getPaymentProvider();
  if (!provider) throw new AppError(503, NOT_CONFIGURED);

  const order = await db().order.create({
    data: {
      categoryId: category.id,
      leadTitle: category.title,
      packageType: pkg.id,
      leadCount: pkg.leadCount,
      amount: pkg.price,
      currency: "usd",
    },
    select: { id: true },
  });
  const base = env().PUBLIC_BASE_URL;
  const returnUrl = returnUrlFor(category.id, pkg.id);
  let invoice;
  try {
    invoice = await provider.createInvoice({
      orderId: order.id,
      priceAmount: pkg.price,
      priceCurrency: "usd",
      description: `${category.title} - ${pkg.name} package (${pkg.leadCount} leads)`,
      successUrl: returnUrl,
      cancelUrl: returnUrl,
      ipnCallbackUrl: `${base}/api/payment/ipn`,
    });
  } catch (error) {
    const message = (error as Error).message;
    console.error(`[payments] invoice for order ${order.id} failed: ${message}`);
    await db().order.update({ where: { id: order.id }, data: { status: "error", lastError: message } });
    throw new AppError(502, "The payment provider could not create an invoice. Please try again.");
  }
  await db().order.update({
    where: { id: order.id },
    data: { invoiceId: invoice.invoiceId, invoiceUrl: invoice.invoiceUrl },
  });
  return { success: true as const, paymentId: invoice.invoiceId, invoiceUrl: invoice.invoiceUrl };
}

async function refreshFromProvider(order: OrderView, provider: PaymentProvider): Promise<OrderView> {
  if (!order.providerPaymentId) return order;
  try {
    const payment = await provider.getPayment(order.providerPaymentId);
    if (payment.orderId !== order.id) return order;
    await applyPayment(order.id, payment);
    return (await findOrder({ id: order.id })) ?? order;
  } catch (error) {
    // The stored state stays valid; the next check (or callback) tries again.
    const message = (error as Error).message;
    console.error(`[payments] status of order ${order.id} not refreshed: ${message}`);
    await db().order.update({ where: { id: order.id }, data: { lastError: message } });
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
 * Finds the order behind a payment id (our invoice id or the provider's payment id, NP_id) and,
 * when it is not final yet, brings it up to date with the provider. An id we have never seen may be
 * a fresh NP_id: it is treated as untrusted and only accepted when the provider says it belongs to
 * one of our orders (same order id and, when reported, the same invoice).
 */
export async function resolveOrder(paymentId: string): Promise<OrderView | null> {
  const known = await findOrder({ paymentId });
  if (known && isFinalStatus(known.status, known.paidAt !== null)) return known;
  const provider = await getPaymentProvider();
  if (!provider) return known;
  if (known) return refreshFromProvider(known, provider);

  let payment;
  try {
    payment = await provider.getPayment(paymentId);
  } catch (error) {
    if (error instanceof ProviderError && error.kind === "not_found") return null;
    console.error(`[payments] looking up payment ${paymentId} failed: ${(error as Error).message}`);
    throw new AppError(502, "The payment provider could not be reached. Please try again in a moment.");
  }
  const orderId = await applyToItsOrder(payment);
  return orderId ? findOrder({ id: orderId }) : null;
}

export function isOrderPaid(order: OrderView): boolean {
  return order.paidAt !== null;
}

/** The spec's status answer. `amount` is what was paid once known, otherwise the price. */
export async function paymentStatus(paymentId: string) {
  const order = await resolveOrder(paymentId);
  if (!order) throw notFound("Payment not found");
  return {
    success: true as const,
    status: order.status,
    amount: order.paidAmount ?? order.amount,
    paid: isOrderPaid(order),
  };
}

/** Handles a verified provider callback. Unknown orders are acknowledged and ignored. */
export async function handleCallback(payment: ProviderPayment): Promise<boolean> {
  return (await applyToItsOrder(payment)) !== null;
}

export const DOWNLOAD_DAYS = 30;

/** The paid order a download link stands for, or the 404/402/410 of decisions.md. */
export async function orderForDownload(paymentId: string): Promise<OrderView> {
  const order = await resolveOrder(paymentId);
  if (!order) throw notFound("Payment not found");
  if (!order.paidAt) {
    throw new AppError(
      402,
      "This payment has not been confirmed yet. Check the payment status and try again once it is complete.",
    );
  }
  const expires = order.paidAt.getTime() + DOWNLOAD_DAYS * 24 * 3600 * 1000;
  if (Date.now() > expires) {
    throw new AppError(
      410,
      `This download link expired ${DOWNLOAD_DAYS} days after payment. To get a new link, send a custom request from the home page (/#custom-request) quoting payment ID ${paymentId}.`,
    );
  }
  return order;
}
