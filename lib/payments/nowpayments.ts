import "server-only";
import { z } from "zod";
import {
  ProviderError,
  providerPaymentSchema,
  type Invoice,
  type InvoiceRequest,
  type PaymentProvider,
  type ProviderPayment,
} from "@/lib/payments/provider";

// NOWPayments' documented REST API (docs/nowpayments.md): POST /invoice and
// GET /payment/{id}, key in `x-api-key`. Every call has a deadline so a slow provider turns into a
// clear error instead of a hanging purchase.
const TIMEOUT_MS = 10_000;

const invoiceAnswer = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  // The buyer's browser is sent there: a web address only, never javascript: or data:.
  invoice_url: z.url({ protocol: /^https?$/ }),
});

// NOWPayments payment ids are decimal numbers (about 10 digits today).
const PAYMENT_ID_SHAPE = /^\d{6,20}$/;

export class NowPaymentsProvider implements PaymentProvider {
  readonly name = "nowpayments" as const;

  isPaymentIdShape(id: string): boolean {
    return PAYMENT_ID_SHAPE.test(id);
  }

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly timeoutMs = TIMEOUT_MS,
  ) {}

  // `label` names the call in errors without the ids in its path: a payment id is the buyer's
  // secret and must not reach a log.
  private async request(
    method: "GET" | "POST",
    path: string,
    label: string,
    body?: object,
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl.replace(/(?<!\/)\/+$/, "")}${path}`, {
        method,
        headers: {
          "x-api-key": this.apiKey,
          accept: "application/json",
          ...(body ? { "content-type": "application/json" } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
        cache: "no-store",
      });
    } catch (error) {
      const reason = (error as Error).name === "TimeoutError" ? "timed out" : (error as Error).message;
      throw new ProviderError("unavailable", `NOWPayments ${method} ${label} failed: ${reason}`);
    }
    const text = await response.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      // An HTML error page from a proxy: reported below with the status.
    }
    if (!response.ok) {
      const message = (json as { message?: unknown } | undefined)?.message;
      const detail = `NOWPayments ${method} ${label} answered ${response.status}${typeof message === "string" ? `: ${message}` : ""}`;
      // Unknown payment ids come back as 404 or as a 400 validation error, depending on their shape.
      if (method === "GET" && (response.status === 404 || response.status === 400)) {
        throw new ProviderError("not_found", detail);
      }
      throw new ProviderError(response.status >= 500 ? "unavailable" : "rejected", detail);
    }
    return json;
  }

  async createInvoice(request: InvoiceRequest): Promise<Invoice> {
    const answer = await this.request("POST", "/invoice", "/invoice", {
      price_amount: request.priceAmount,
      price_currency: request.priceCurrency,
      order_id: request.orderId,
      order_description: request.description,
      ipn_callback_url: request.ipnCallbackUrl,
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      // The buyer picks a coin on the hosted page; the shop receives the full price.
      is_fee_paid_by_user: false,
    });
    const parsed = invoiceAnswer.safeParse(answer);
    if (!parsed.success)
      throw new ProviderError("unavailable", "NOWPayments answered an invoice without id or URL");
    return { invoiceId: parsed.data.id, invoiceUrl: parsed.data.invoice_url };
  }

  async getPayment(paymentId: string): Promise<ProviderPayment> {
    const answer = await this.request("GET", `/payment/${encodeURIComponent(paymentId)}`, "/payment/{id}");
    const parsed = providerPaymentSchema.safeParse(answer);
    if (!parsed.success)
      throw new ProviderError("unavailable", "NOWPayments answered a payment of unknown shape");
    return parsed.data;
  }
}
