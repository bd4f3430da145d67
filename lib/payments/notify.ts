import "server-only";
import { env } from "@/lib/env";
import { sendMail } from "@/lib/mail";
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

/** Tells the admin about a confirmed sale. Never throws: a mail problem must not touch the sale. */
export async function notifySale(sale: SaleSummary): Promise<void> {
  try {
    const to = await getNotificationRecipient();
    if (!to) return;
    const pkg = getPackage(sale.packageType);
    const price = `${sale.amount} ${sale.currency.toUpperCase()}`;
    await sendMail({
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
    });
  } catch (error) {
    console.error(`[payments] sale notification for order ${sale.id} failed: ${(error as Error).message}`);
  }
}
