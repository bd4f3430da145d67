import "server-only";
import { env } from "@/lib/env";
import { NowPaymentsProvider } from "@/lib/payments/nowpayments";
import type { PaymentProvider } from "@/lib/payments/provider";
import { TestPaymentProvider } from "@/lib/payments/test-provider";
import { getNowPaymentsApiKey } from "@/lib/settings";

/**
 * The provider to use now: the test provider in PAYMENTS_TEST_MODE, otherwise NOWPayments with the
 * key from Settings (or NOWPAYMENTS_API_KEY). Null when no key is configured. Read per call so a
 * key saved in Settings takes effect without a restart.
 */
export async function getPaymentProvider(): Promise<PaymentProvider | null> {
  const config = env();
  if (config.paymentsTestMode) return new TestPaymentProvider();
  const apiKey = await getNowPaymentsApiKey();
  return apiKey ? new NowPaymentsProvider(config.NOWPAYMENTS_API_URL, apiKey) : null;
}
