import "server-only";
import { env } from "@/lib/env";
import type { PoolClient } from "pg";
import type { Mail } from "@/lib/mail";
import { queueMail } from "@/lib/mail/outbox";
import { getPackage } from "@/lib/packages";
import { getNotificationRecipient } from "@/lib/settings";

export type SaleSummary = {
  id: string;
  leadTitle: string;
  packageType: string;
  leadCount: number;
  amount: string;
  currency: string;
};

/** The admin's mail about a confirmed sale. */
export function saleNotification(sale: SaleSummary, to: string): Mail {
  const pkg = getPackage(sale.packageType);
  const price = `${sale.amount} ${sale.currency.toUpperCase()}`;
  return {
    to,
    subject: `New sale: ${sale.leadTitle} - ${pkg?.name ?? sale.packageType} (${price})`,
    text: [
      "A payment was confirmed.",
      "",
      `Category: ${sale.leadTitle}`,
      `Package: ${pkg?.name ?? sale.packageType} (${sale.leadCount.toLocaleString("en-US")} leads)`,
      `Amount: ${price}`,
      `Order: ${sale.id}`,
      "",
      `Dashboard: ${env().PUBLIC_BASE_URL}/admin/dashboard`,
    ].join("\n"),
  };
}

/**
 * Queues the admin's sale notification (when notifications are on) in the transaction that
 * records the payment, so the mail exists exactly when the sale does.
 */
export async function queueSaleNotification(client: PoolClient, sale: SaleSummary): Promise<void> {
  const to = await getNotificationRecipient(client);
  if (to) await queueMail(saleNotification(sale, to), client, "sale-notification");
}
