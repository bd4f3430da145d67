// A NOWPayments stand-in on loopback, following the documented API (docs/nowpayments.md):
// POST /v1/invoice, GET /v1/payment/{id}, GET /v1/status with `x-api-key`, a hosted invoice page that
// "pays" and redirects to success_url with NP_id appended, and IPN callbacks signed the way the
// provider signs them. Independent of the app's own code on purpose.
import { createHmac, randomInt } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody, startStandin } from "./standin";

export type StandinInvoice = {
  id: string;
  order_id: string;
  order_description: string;
  price_amount: string;
  price_currency: string;
  ipn_callback_url: string;
  success_url: string;
  cancel_url: string;
  invoice_url: string;
  created_at: string;
  updated_at: string;
};

export type StandinPayment = {
  payment_id: number;
  invoice_id: number;
  order_id: string;
  order_description: string;
  payment_status: string;
  price_amount: number;
  price_currency: string;
  pay_amount: number;
  actually_paid: number;
  actually_paid_at_fiat: number;
  pay_currency: string;
  outcome_amount: number;
  outcome_currency: string;
  purchase_id: string;
  created_at: string;
  updated_at: string;
  fee: { currency: string; depositFee: number; withdrawalFee: number; serviceFee: number };
};

export type PayOptions = {
  status?: string;
  /** Fraction of the crypto amount actually received (1 = in full). */
  paidRatio?: number;
  /** Overrides the fiat price the payment reports. */
  priceAmount?: number;
};

export type NowPaymentsStandin = {
  url: string;
  apiKey: string;
  ipnSecret: string;
  invoices: Map<string, StandinInvoice>;
  payments: Map<string, StandinPayment>;
  /** What the hosted page's Pay button does: creates a payment of the invoice. */
  pay: (invoiceId: string, options?: PayOptions) => StandinPayment;
  setStatus: (paymentId: string | number, status: string) => StandinPayment;
  /** A callback body for the payment and its signature, as the provider would send them. */
  signedIpn: (
    paymentId: string | number,
    overrides?: Partial<StandinPayment>,
  ) => { body: string; signature: string };
  /** Posts the payment to its invoice's ipn_callback_url, signed; returns the HTTP status. */
  sendIpn: (paymentId: string | number, overrides?: Partial<StandinPayment>) => Promise<number>;
  /** Makes the next `count` invoice creations fail: an HTTP status, a dropped connection, or no answer. */
  /** The next `count` invoice creations fail (only those priced `price`, when given). */
  failInvoices: (mode: number | "hang" | "reset", count?: number, price?: number) => void;
  /** How many GET /v1/payment/{id} calls the stand-in has answered so far. */
  paymentLookups: () => number;
  /** Whether the hosted page's Pay button also sends the IPN callback (default true). */
  setAutoIpn: (on: boolean) => void;
  /** The status the hosted page's Pay button gives new payments (default finished). */
  setPayStatus: (status: string) => void;
  close: () => Promise<void>;
};

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, inner]) => [key, sortKeysDeep(inner)]),
    );
  }
  return value;
}

/** The provider's signature: hex HMAC-SHA512 of JSON of the recursively key-sorted body. */
export function signLikeNowPayments(body: unknown, secret: string): string {
  return createHmac("sha512", secret.trim())
    .update(JSON.stringify(sortKeysDeep(body)))
    .digest("hex");
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader("content-type", "application/json");
  response.end(JSON.stringify(body));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

export type StandinOptions = {
  apiKey?: string;
  ipnSecret?: string;
  /**
   * Accept any non-empty x-api-key. For the shared e2e app, where another spec may store its own key
   * in Settings (which wins over NOWPAYMENTS_API_KEY); the integration tests check the key.
   */
  acceptAnyKey?: boolean;
};

export async function startNowPaymentsStandin(options: StandinOptions = {}): Promise<NowPaymentsStandin> {
  const apiKey = options.apiKey ?? "standin-api-key";
  const ipnSecret = options.ipnSecret ?? "standin-ipn-secret";
  const invoices = new Map<string, StandinInvoice>();
  const payments = new Map<string, StandinPayment>();
  // Like the provider: 10-digit ids, not predictable from the previous one (invoice and payment
  // ids come from one range, so they could even be equal).
  const usedIds = new Set<string>();
  const newId = (): string => {
    for (;;) {
      const id = String(randomInt(4_000_000_000, 9_000_000_000));
      if (!usedIds.has(id)) {
        usedIds.add(id);
        return id;
      }
    }
  };
  let failures: { mode: number | "hang" | "reset"; count: number; price?: number } = { mode: 500, count: 0 };
  let autoIpn = true;
  let paymentLookups = 0;
  let payStatus = "finished";
  let origin = "";

  const pay = (invoiceId: string, payOptions: PayOptions = {}): StandinPayment => {
    const invoice = invoices.get(invoiceId);
    if (!invoice) throw new Error(`Unknown invoice ${invoiceId}`);
    const payAmount = Number(invoice.price_amount) / 2; // a pretend coin worth 2 USD
    const now = new Date().toISOString();
    const paymentId = Number(newId());
    const payment: StandinPayment = {
      payment_id: paymentId,
      invoice_id: Number(invoice.id),
      order_id: invoice.order_id,
      order_description: invoice.order_description,
      payment_status: payOptions.status ?? payStatus,
      price_amount: payOptions.priceAmount ?? Number(invoice.price_amount),
      price_currency: invoice.price_currency,
      pay_amount: payAmount,
      actually_paid: payAmount * (payOptions.paidRatio ?? 1),
      actually_paid_at_fiat: Number(invoice.price_amount) * (payOptions.paidRatio ?? 1) - 0.37,
      pay_currency: "usdttrc20",
      outcome_amount: payAmount * 0.995,
      outcome_currency: "usdttrc20",
      purchase_id: newId(),
      created_at: now,
      updated_at: now,
      fee: { currency: "usdttrc20", depositFee: 0, withdrawalFee: 0.1, serviceFee: 0.5 },
    };
    payments.set(String(payment.payment_id), payment);
    return payment;
  };

  const signedIpn = (paymentId: string | number, overrides: Partial<StandinPayment> = {}) => {
    const payment = payments.get(String(paymentId));
    if (!payment) throw new Error(`Unknown payment ${paymentId}`);
    const body = { ...payment, ...overrides };
    // Sent with its keys in the provider's own (unsorted) order; only the signature sorts them.
    return { body: JSON.stringify(body), signature: signLikeNowPayments(body, ipnSecret) };
  };

  const sendIpn = async (paymentId: string | number, overrides: Partial<StandinPayment> = {}) => {
    const payment = payments.get(String(paymentId));
    if (!payment) throw new Error(`Unknown payment ${paymentId}`);
    const invoice = invoices.get(String(payment.invoice_id))!;
    const { body, signature } = signedIpn(paymentId, overrides);
    const response = await fetch(invoice.ipn_callback_url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-nowpayments-sig": signature },
      body,
    });
    await response.text();
    return response.status;
  };

  const api = async (request: IncomingMessage, response: ServerResponse, path: string) => {
    if (path === "/v1/status") return sendJson(response, 200, { message: "OK" });
    const key = request.headers["x-api-key"];
    if (options.acceptAnyKey ? !key : key !== apiKey) {
      return sendJson(response, 403, {
        status: false,
        statusCode: 403,
        code: "INVALID_API_KEY",
        message: "Invalid api key",
      });
    }
    if (request.method === "POST" && path === "/v1/invoice") {
      const body = JSON.parse((await readBody(request)) || "{}") as Record<string, unknown>;
      if (failures.count > 0 && (failures.price === undefined || failures.price === body.price_amount)) {
        failures.count -= 1;
        if (failures.mode === "hang") return; // never answers: the client's timeout must fire
        if (failures.mode === "reset") return void request.socket.destroy();
        return sendJson(response, failures.mode, { status: false, message: "Internal server error" });
      }
      if (typeof body.price_amount !== "number" || typeof body.price_currency !== "string") {
        return sendJson(response, 400, {
          status: false,
          code: "INVALID_REQUEST_PARAMS",
          message: "price_amount is required",
        });
      }
      const id = newId();
      const now = new Date().toISOString();
      const invoice: StandinInvoice = {
        id,
        order_id: String(body.order_id ?? ""),
        order_description: String(body.order_description ?? ""),
        price_amount: String(body.price_amount),
        price_currency: body.price_currency,
        ipn_callback_url: String(body.ipn_callback_url ?? ""),
        success_url: String(body.success_url ?? ""),
        cancel_url: String(body.cancel_url ?? ""),
        invoice_url: `${origin}/payment/?iid=${id}`,
        created_at: now,
        updated_at: now,
      };
      invoices.set(id, invoice);
      return sendJson(response, 201, {
        ...invoice,
        token_id: "tok",
        pay_currency: null,
        is_fixed_rate: false,
      });
    }
    const match = /^\/v1\/payment\/([^/]+)$/.exec(path);
    if (request.method === "GET" && match) {
      paymentLookups += 1;
      if (!/^\d+$/.test(match[1])) {
        return sendJson(response, 400, {
          status: false,
          code: "INVALID_REQUEST_PARAMS",
          message: '"id" must be a number',
        });
      }
      const payment = payments.get(match[1]);
      if (!payment)
        return sendJson(response, 404, {
          status: false,
          code: "PAYMENT_NOT_FOUND",
          message: "Payment not found",
        });
      // The status answer has no IPN-only fields.
      const { fee, actually_paid_at_fiat, ...answer } = payment;
      void fee;
      void actually_paid_at_fiat;
      return sendJson(response, 200, answer);
    }
    return sendJson(response, 404, { message: "Not found" });
  };

  const hosted = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const invoice = invoices.get(url.searchParams.get("iid") ?? "");
    if (!invoice) return sendJson(response, 404, { message: "Invoice not found" });
    if (request.method === "GET" && url.pathname === "/payment/") {
      response.setHeader("content-type", "text/html; charset=utf-8");
      return response.end(`<!doctype html><html><head><title>NOWPayments stand-in invoice</title></head><body>
        <h1>Invoice ${escapeHtml(invoice.id)}</h1>
        <p>${escapeHtml(invoice.order_description)}: ${escapeHtml(invoice.price_amount)} ${escapeHtml(invoice.price_currency.toUpperCase())}</p>
        <form method="post" action="/payment/pay?iid=${invoice.id}"><button type="submit">Pay now</button></form>
        <form method="post" action="/payment/cancel?iid=${invoice.id}"><button type="submit">Cancel payment</button></form>
      </body></html>`);
    }
    if (request.method === "POST" && url.pathname === "/payment/pay") {
      const payment = pay(invoice.id);
      if (autoIpn) await sendIpn(payment.payment_id).catch(() => undefined);
      const target = new URL(invoice.success_url);
      target.searchParams.set("NP_id", String(payment.payment_id));
      response.writeHead(303, { location: target.toString() });
      return response.end();
    }
    if (request.method === "POST" && url.pathname === "/payment/cancel") {
      response.writeHead(303, { location: invoice.cancel_url });
      return response.end();
    }
    return sendJson(response, 404, { message: "Not found" });
  };

  const server = await startStandin(async (request, response) => {
    const url = new URL(request.url ?? "/", origin);
    // Test control from other processes (Playwright workers): POST /__control/fail-invoices?mode=500
    if (request.method === "POST" && url.pathname === "/__control/fail-invoices") {
      const mode = url.searchParams.get("mode") ?? "500";
      const price = url.searchParams.get("price");
      failures = {
        mode: mode === "hang" || mode === "reset" ? mode : Number(mode),
        count: Number(url.searchParams.get("count") ?? 1),
        price: price === null ? undefined : Number(price),
      };
      return sendJson(response, 200, { ok: true });
    }
    if (url.pathname.startsWith("/v1/")) await api(request, response, url.pathname);
    else await hosted(request, response, url);
  });
  origin = server.url;

  return {
    url: `${server.url}/v1`,
    apiKey,
    ipnSecret,
    invoices,
    payments,
    pay,
    setStatus: (paymentId, status) => {
      const payment = payments.get(String(paymentId));
      if (!payment) throw new Error(`Unknown payment ${paymentId}`);
      payment.payment_status = status;
      payment.updated_at = new Date().toISOString();
      return payment;
    },
    signedIpn,
    sendIpn,
    paymentLookups: () => paymentLookups,
    failInvoices: (mode, count = 1, price) => {
      failures = { mode, count, price };
    },
    setAutoIpn: (on) => {
      autoIpn = on;
    },
    setPayStatus: (status) => {
      payStatus = status;
    },
    close: server.close,
  };
}
