import "server-only";
import type { PoolClient } from "pg";
import { queueMail } from "@/lib/mail/outbox";
import { orderPageUrl } from "@/lib/orders/links";
import { receiptMail } from "@/lib/orders/mails";

type ReceiptRow = {
  buyer_email: string | null;
  lead_title: string;
  package_type: string;
  lead_count: number;
  amount: string;
  currency: string;
  download_key: string;
  download_expires_at: Date | null;
};

/**
 * Queues the buyer's receipt for a paid order that has a buyer email, inside the caller's
 * transaction (the first payment's, or the admin's "Resend receipt"), and records when it was
 * queued. The one place receipts come from. Answers whether a receipt was queued.
 */
export async function queueReceipt(client: PoolClient, orderId: string): Promise<boolean> {
  const { rows } = await client.query<ReceiptRow>(
    `SELECT buyer_email, lead_title, package_type, lead_count, amount::text, currency, download_key,
            download_expires_at
       FROM orders WHERE id = $1`,
    [orderId],
  );
  const order = rows[0];
  if (!order?.buyer_email || !order.download_expires_at) return false;
  const mail = receiptMail({
    to: order.buyer_email,
    categoryTitle: order.lead_title,
    packageType: order.package_type,
    leadCount: order.lead_count,
    amount: Number(order.amount),
    currency: order.currency,
    orderUrl: orderPageUrl(order.download_key),
    expiresAt: order.download_expires_at,
  });
  await queueMail(mail, client, "receipt");
  await client.query("UPDATE orders SET receipt_sent_at = now() WHERE id = $1", [orderId]);
  return true;
}
