import "server-only";
import { db } from "@/lib/db";
import { sendMail } from "@/lib/mail";
import { orderPageUrl } from "@/lib/orders/links";
import { receiptMail } from "@/lib/orders/mails";

/**
 * Sends the buyer's receipt for a paid order that has a buyer email, and records when it left.
 * The one place receipts are sent from (first payment and the admin's "Resend receipt").
 * Never throws: a mail problem must not touch the sale. Answers whether the mail left.
 */
export async function sendReceipt(orderId: string): Promise<boolean> {
  try {
    const order = await db().order.findUnique({
      where: { id: orderId },
      select: {
        buyerEmail: true,
        leadTitle: true,
        packageType: true,
        leadCount: true,
        amount: true,
        currency: true,
        downloadKey: true,
        downloadExpiresAt: true,
      },
    });
    if (!order?.buyerEmail || !order.downloadExpiresAt) return false;
    const sent = await sendMail(
      receiptMail({
        to: order.buyerEmail,
        categoryTitle: order.leadTitle,
        packageType: order.packageType,
        leadCount: order.leadCount,
        amount: Number(order.amount),
        currency: order.currency,
        orderUrl: orderPageUrl(order.downloadKey),
        expiresAt: order.downloadExpiresAt,
      }),
    );
    if (sent) await db().order.update({ where: { id: orderId }, data: { receiptSentAt: new Date() } });
    return sent;
  } catch (error) {
    console.error(`[orders] receipt for order ${orderId} failed: ${(error as Error).message}`);
    return false;
  }
}
