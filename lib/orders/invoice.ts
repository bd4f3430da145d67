import "server-only";
import { db, transaction, type Tx } from "@/lib/db";
import { conflict, notFound } from "@/lib/errors";
import { assertWithinLimit } from "@/lib/limits/throttle";
import type { Caller } from "@/lib/limits/caller";
import { findByKey } from "@/lib/orders/access";
import type { OrderView } from "@/lib/orders/view";
import { getSettings } from "@/lib/settings";
import type { InvoiceDetails, InvoiceSummary } from "@/lib/schemas/invoice";

// A paid order's invoice (docs/product-rules.md, "Invoices"). The first details the buyer sends
// issue it: the seller's next number, taken from its counter row in the same transaction (so a
// failed attempt gives the number back and numbers have no gaps), and the seller's identity and
// VAT rate as they are then. The buyer may correct their details once; the number stays.

/** The settings row is the store's one seller. */
const SELLER_ID = 1;
const PDFS_PER_ORDER = { max: 30, windowSeconds: 600 };

export type PaidOrder = OrderView & { paidAt: Date };

/** The paid order a key names: 404 for a key we do not know, 409 while it is unpaid. */
export async function invoiceableOrder(key: string, caller: Caller): Promise<PaidOrder> {
  const order = await findByKey(key, caller);
  if (!order) throw notFound("Order not found");
  if (!order.paidAt) throw conflict("An invoice is available once the payment is confirmed");
  return { ...order, paidAt: order.paidAt };
}

export const invoiceSummarySelect = {
  number: true,
  companyName: true,
  address: true,
  country: true,
  vatId: true,
  issuedAt: true,
  correctedAt: true,
} as const;

type InvoiceSummaryRow = Omit<InvoiceSummary, "issuedAt" | "correctedAt"> & {
  issuedAt: Date;
  correctedAt: Date | null;
};

export function toInvoiceSummary(row: InvoiceSummaryRow): InvoiceSummary {
  return {
    ...row,
    issuedAt: row.issuedAt.toISOString(),
    correctedAt: row.correctedAt?.toISOString() ?? null,
  };
}

/** The order's invoice, or null before the buyer asked for one. */
export async function invoiceOf(orderId: string): Promise<InvoiceSummary | null> {
  const row = await db().invoice.findUnique({ where: { orderId }, select: invoiceSummarySelect });
  return row && toInvoiceSummary(row);
}

const sameDetails = (row: InvoiceSummaryRow, details: InvoiceDetails) =>
  row.companyName === details.companyName &&
  row.address === details.address &&
  row.country === details.country &&
  row.vatId === details.vatId;

async function correct(
  tx: Tx,
  orderId: string,
  existing: InvoiceSummaryRow,
  details: InvoiceDetails,
  now: Date,
): Promise<InvoiceSummaryRow> {
  // Sending the same details again (a double submit) changes nothing and keeps the correction.
  if (sameDetails(existing, details)) return existing;
  if (existing.correctedAt) {
    throw conflict("This invoice's details were already corrected once and cannot be changed again");
  }
  return tx.invoice.update({
    where: { orderId },
    data: { ...details, correctedAt: now },
    select: invoiceSummarySelect,
  });
}

async function issue(tx: Tx, orderId: string, details: InvoiceDetails): Promise<InvoiceSummaryRow> {
  const seller = await tx.settings.findUniqueOrThrow({
    where: { id: SELLER_ID },
    select: { sellerLegalName: true, sellerAddress: true, sellerVatNumber: true, vatRatePercent: true },
  });
  if (!seller.sellerLegalName || !seller.sellerAddress) {
    throw conflict(
      "Invoices are not available yet: the seller's details are incomplete. Please try again later.",
    );
  }
  await tx.invoiceCounter.createMany({ data: [{ sellerId: SELLER_ID }], skipDuplicates: true });
  // The row lock this update takes queues concurrent invoices: each gets the next number.
  const { lastNumber } = await tx.invoiceCounter.update({
    where: { sellerId: SELLER_ID },
    data: { lastNumber: { increment: 1 } },
    select: { lastNumber: true },
  });
  return tx.invoice.create({
    data: { orderId, sellerId: SELLER_ID, number: lastNumber, ...details, ...seller },
    select: invoiceSummarySelect,
  });
}

/**
 * Issues the order's invoice with `details`, or corrects the issued one (once). Answers the
 * invoice and whether this call issued it; 409 for a second correction and while the seller's
 * legal name or address is missing in Settings.
 */
export async function saveInvoiceDetails(
  order: PaidOrder,
  details: InvoiceDetails,
  now = new Date(),
): Promise<{ invoice: InvoiceSummary; issued: boolean }> {
  await getSettings();
  return transaction(async (tx) => {
    // The order's row lock makes two submits for one order take turns.
    await tx.$executeRaw`SELECT 1 FROM orders WHERE id = ${order.id}::uuid FOR UPDATE`;
    const existing = await tx.invoice.findUnique({
      where: { orderId: order.id },
      select: invoiceSummarySelect,
    });
    const row = existing
      ? await correct(tx, order.id, existing, details, now)
      : await issue(tx, order.id, details);
    return { invoice: toInvoiceSummary(row), issued: !existing };
  });
}

/** Counts one PDF of the order: 30 per order per 10 minutes (each is drawn afresh). */
export async function countInvoicePdf(orderId: string): Promise<void> {
  await assertWithinLimit(
    { bucket: `invoice-pdf:${orderId}`, ...PDFS_PER_ORDER },
    "Too many invoice downloads for this order. Please try again later.",
  );
}
