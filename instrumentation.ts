// Validates the environment when the server starts, so a misconfiguration stops it at once
// instead of failing the first request; then starts the mail outbox's worker and the orders'
// background upkeep (expiry of abandoned checkouts, re-checks of pending payments).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { env } = await import("@/lib/env");
    const { testPaymentsWarning } = await import("@/lib/production-rules");
    const warning = testPaymentsWarning(env().paymentsTestMode);
    if (warning) console.warn(warning);
    const { startOutboxWorker } = await import("@/lib/mail/outbox");
    startOutboxWorker();
    const { startOrderMaintenance } = await import("@/lib/orders/maintenance");
    startOrderMaintenance();
  }
}
