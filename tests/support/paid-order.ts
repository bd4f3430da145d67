// One paid order the way a buyer makes it: create (from a fresh client address), the provider's
// stand-in pays the invoice in full, and the signed callback arrives. Answers the download key.
import { expect } from "vitest";
import { fromAddress } from "./client";
import type { NowPaymentsStandin } from "./nowpayments-standin";
import { call, callJson } from "./routes";

let addresses = 0;

export type OrderRequest = {
  categoryId: string;
  packageType?: string;
  email?: string;
  emailQuality?: string;
  location?: string;
};

export async function paidOrder(standin: NowPaymentsStandin, request: OrderRequest): Promise<string> {
  // Imported when called: the test file sets DATABASE_URL and the provider's variables first.
  const { POST: create } = await import("@/app/api/payment/create/route");
  const { POST: ipn } = await import("@/app/api/payment/ipn/route");
  const { db } = await import("@/lib/db");
  addresses += 1;
  const result = await callJson<{ paymentId: string; message?: string }>(create, "/api/payment/create", {
    json: { packageType: "starter", ...request },
    headers: fromAddress(`10.200.${Math.floor(addresses / 250)}.${addresses % 250}`),
  });
  expect(result.status, result.body.message).toBe(200);
  const order = await db().order.findUniqueOrThrow({ where: { downloadKey: result.body.paymentId } });
  const payment = standin.pay(order.invoiceId!, { status: "finished" });
  const signed = standin.signedIpn(payment.payment_id);
  const paid = await call(ipn, "/api/payment/ipn", {
    body: signed.body,
    headers: { "content-type": "application/json", "x-nowpayments-sig": signed.signature },
  });
  expect(paid.status).toBe(200);
  return result.body.paymentId;
}
