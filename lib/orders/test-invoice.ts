import "server-only";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { getPackage } from "@/lib/packages";
import { returnUrlFor } from "@/lib/orders/links";
import { isTestInvoiceId, testPaymentIdFor } from "@/lib/payments/test-provider";

// The test payment page's data. Everything here answers null when test mode is off, so the page
// and its form route are unreachable (404) outside PAYMENTS_TEST_MODE.

export type TestInvoice = {
  invoiceId: string;
  leadTitle: string;
  packageName: string;
  leadCount: number;
  amount: number;
  paid: boolean;
  returnUrl: string;
};

export async function findTestInvoice(invoiceId: string): Promise<TestInvoice | null> {
  if (!env().paymentsTestMode || !isTestInvoiceId(invoiceId)) return null;
  const order = await db().order.findUnique({
    where: { invoiceId },
    select: {
      categoryId: true,
      leadTitle: true,
      packageType: true,
      leadCount: true,
      amount: true,
      paidAt: true,
      downloadKey: true,
      location: true,
    },
  });
  if (!order) return null;
  return {
    invoiceId,
    leadTitle: order.leadTitle,
    packageName: getPackage(order.packageType)?.name ?? order.packageType,
    leadCount: order.leadCount,
    amount: Number(order.amount),
    paid: order.paidAt !== null,
    returnUrl: returnUrlFor(order.categoryId, order.packageType, order.downloadKey, order.location),
  };
}

/** Where the test page sends the buyer: back with NP_id after paying, back without after cancelling. */
export function testRedirect(invoice: TestInvoice, action: "pay" | "cancel"): string {
  if (action === "cancel") return `${invoice.returnUrl}&cancelled=1`;
  return `${invoice.returnUrl}&NP_id=${encodeURIComponent(testPaymentIdFor(invoice.invoiceId))}`;
}
