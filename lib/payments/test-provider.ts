import "server-only";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import {
  ProviderError,
  type Invoice,
  type InvoiceRequest,
  type PaymentProvider,
  type ProviderPayment,
} from "@/lib/payments/provider";

// The built-in provider of PAYMENTS_TEST_MODE. Its invoice page is /test-payment/{invoiceId};
// "paying" there redirects back with an NP_id that carries an HMAC of the invoice id, so the
// provider needs no state of its own: a valid NP_id is proof the test page's Pay button was used.
const INVOICE_PATTERN = /^test_[0-9a-f]{16}$/;
const PAYMENT_PATTERN = /^(test_[0-9a-f]{16})_([0-9a-f]{32})$/;

function signature(invoiceId: string): string {
  return createHmac("sha256", env().APP_SECRET)
    .update(`test-payment:${invoiceId}`)
    .digest("hex")
    .slice(0, 32);
}

export function isTestInvoiceId(value: string): boolean {
  return INVOICE_PATTERN.test(value);
}

/** The NP_id the test page appends when the buyer presses Pay. */
export function testPaymentIdFor(invoiceId: string): string {
  return `${invoiceId}_${signature(invoiceId)}`;
}

export class TestPaymentProvider implements PaymentProvider {
  readonly name = "test" as const;

  isPaymentIdShape(id: string): boolean {
    return PAYMENT_PATTERN.test(id);
  }

  async createInvoice(request: InvoiceRequest): Promise<Invoice> {
    void request;
    const invoiceId = `test_${randomBytes(8).toString("hex")}`;
    return { invoiceId, invoiceUrl: `${env().PUBLIC_BASE_URL}/test-payment/${invoiceId}` };
  }

  async getPayment(paymentId: string): Promise<ProviderPayment> {
    const match = PAYMENT_PATTERN.exec(paymentId);
    const expected = match ? Buffer.from(signature(match[1])) : undefined;
    const given = match ? Buffer.from(match[2]) : undefined;
    if (!match || !expected || !given || !timingSafeEqual(expected, given)) {
      throw new ProviderError("not_found", "Unknown test payment");
    }
    const order = await db().order.findUnique({
      where: { invoiceId: match[1] },
      select: { id: true, amount: true, currency: true },
    });
    if (!order) throw new ProviderError("not_found", "Unknown test invoice");
    const amount = Number(order.amount);
    return {
      paymentId,
      invoiceId: match[1],
      orderId: order.id,
      status: "finished",
      priceAmount: amount,
      priceCurrency: order.currency,
      payAmount: amount,
      actuallyPaid: amount,
      payCurrency: order.currency,
      actuallyPaidFiat: amount,
    };
  }
}
