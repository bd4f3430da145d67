import "server-only";
import { describeSegment, type Segment } from "@/lib/segments/vocabularies";
import type { Tx } from "@/lib/db";
import { queueMail } from "@/lib/mail/outbox";
import { invoiceUrl, orderPageUrl } from "@/lib/orders/links";
import { receiptMail, saleNotification, type SaleSummary } from "@/lib/orders/mails";
import { describeExclusions } from "@/lib/orders/view";
import { getNotificationRecipient } from "@/lib/settings";

/**
 * Queues the buyer's receipt for a paid order that has a buyer email, inside the caller's
 * transaction (the first payment's, or the admin's "Resend receipt"), and records when it was
 * queued. The one place receipts come from. Answers whether a receipt was queued.
 */
export async function queueReceipt(tx: Tx, orderId: string): Promise<boolean> {
  const order = await tx.order.findUnique({
    where: { id: orderId },
    select: {
      buyerEmail: true,
      leadTitle: true,
      segment: true,
      emailQuality: true,
      packageType: true,
      leadCount: true,
      amount: true,
      currency: true,
      downloadKey: true,
      downloadExpiresAt: true,
      excludedBought: true,
      excludedListed: true,
    },
  });
  if (!order?.buyerEmail || !order.downloadExpiresAt) return false;
  const mail = receiptMail({
    to: order.buyerEmail,
    categoryTitle: order.leadTitle,
    segment: describeSegment(order.segment as Segment | null),
    emailQuality: order.emailQuality,
    packageType: order.packageType,
    leadCount: order.leadCount,
    excluded: describeExclusions(order),
    amount: order.amount.toNumber(),
    currency: order.currency,
    orderUrl: orderPageUrl(order.downloadKey),
    invoiceUrl: invoiceUrl(order.downloadKey),
    expiresAt: order.downloadExpiresAt,
  });
  await queueMail(mail, tx, "receipt");
  await tx.order.update({
    where: { id: orderId },
    data: { receiptSentAt: new Date() },
    select: { id: true },
  });
  return true;
}

/**
 * Queues the admin's sale notification (when notifications are on) in the transaction that
 * records the payment, so the mail exists exactly when the sale does.
 */
export async function queueSaleNotification(tx: Tx, sale: SaleSummary): Promise<void> {
  const to = await getNotificationRecipient(tx);
  if (to) await queueMail(saleNotification(sale, to), tx, "sale-notification");
}
