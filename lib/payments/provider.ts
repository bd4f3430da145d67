import "server-only";
import { z } from "zod";

// The small surface the shop needs from a payment provider. NOWPayments' REST API and the built-in
// test provider (PAYMENTS_TEST_MODE) both implement it.

export type InvoiceRequest = {
  orderId: string;
  priceAmount: number;
  priceCurrency: string;
  description: string;
  successUrl: string;
  cancelUrl: string;
  ipnCallbackUrl: string;
};

export type Invoice = { invoiceId: string; invoiceUrl: string };

/** A provider payment, normalised: ids as strings (the provider switches between numbers and strings). */
export type ProviderPayment = {
  paymentId: string;
  invoiceId: string | null;
  orderId: string | null;
  status: string;
  priceAmount: number | null;
  priceCurrency: string | null;
  payAmount: number | null;
  actuallyPaid: number | null;
  payCurrency: string | null;
  /** The received crypto's value in the price currency (callbacks carry it; status answers may not). */
  actuallyPaidFiat: number | null;
};

export interface PaymentProvider {
  readonly name: "nowpayments" | "test";
  createInvoice(request: InvoiceRequest): Promise<Invoice>;
  /** Whether an id could be one of this provider's payment ids (only those are worth asking about). */
  isPaymentIdShape(id: string): boolean;
  /** Throws ProviderError("not_found") when the provider does not know the id. */
  getPayment(paymentId: string): Promise<ProviderPayment>;
}

export class ProviderError extends Error {
  constructor(
    readonly kind: "not_found" | "unavailable" | "rejected",
    message: string,
  ) {
    super(message);
  }
}

const id = z.union([z.string(), z.number()]).transform(String);
const optionalId = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v == null ? null : String(v)));
const optionalNumber = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((value) => {
    if (value === null || value === undefined || value === "") return null;
    const number = Number(value);
    return Number.isFinite(number) ? number : null;
  });

/** The payment status answer and the IPN body share this shape. */
export const providerPaymentSchema = z
  .object({
    payment_id: id,
    invoice_id: optionalId,
    order_id: optionalId,
    payment_status: z.string().min(1).max(40),
    price_amount: optionalNumber,
    price_currency: z.string().max(20).nullable().optional(),
    pay_amount: optionalNumber,
    actually_paid: optionalNumber,
    pay_currency: z.string().max(20).nullable().optional(),
    actually_paid_at_fiat: optionalNumber,
  })
  .transform((raw): ProviderPayment => ({
    paymentId: raw.payment_id,
    invoiceId: raw.invoice_id,
    orderId: raw.order_id,
    status: raw.payment_status,
    priceAmount: raw.price_amount,
    priceCurrency: raw.price_currency?.toLowerCase() ?? null,
    payAmount: raw.pay_amount,
    actuallyPaid: raw.actually_paid,
    payCurrency: raw.pay_currency?.toLowerCase() ?? null,
    actuallyPaidFiat: raw.actually_paid_at_fiat,
  }));
