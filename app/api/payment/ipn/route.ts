import { route } from "@/lib/api/handler";
import { badRequest, unauthorized } from "@/lib/errors";
import { env } from "@/lib/env";
import { verifyIpnSignature } from "@/lib/payments/ipn";
import { handleCallback } from "@/lib/orders/sync";
import { providerPaymentSchema } from "@/lib/payments/provider";

// POST /api/payment/ipn - NOWPayments callback, accepted only with a valid x-nowpayments-sig
// The body is read as text, bounded like every JSON body: the signature is over the parsed body.
export const POST = route({ rawBody: "text" }, async ({ rawBody: text, headers }) => {
  const secret = env().NOWPAYMENTS_IPN_SECRET;
  if (!secret) throw unauthorized("Payment callbacks are not configured");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw unauthorized("Invalid signature");
  }
  if (!verifyIpnSignature(body, headers.get("x-nowpayments-sig"), secret)) {
    throw unauthorized("Invalid signature");
  }
  const payment = providerPaymentSchema.safeParse(body);
  if (!payment.success) throw badRequest("Callback body is not a payment");
  const applied = await handleCallback(payment.data);
  // Unknown orders are acknowledged too, so the provider stops retrying them.
  return { success: true, applied };
});
