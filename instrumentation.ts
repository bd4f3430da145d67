// Validates the environment when the server starts, so a misconfiguration stops it at once
// instead of failing the first request; then starts the mail outbox's worker and the orders'
// background upkeep (expiry of abandoned checkouts, re-checks of pending payments), the pace of
// UK leads' privacy notices, and the normalising of phones stored before phones were.
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
    const { startNoticeWorker } = await import("@/lib/privacy/notices");
    startNoticeWorker();
    // Leads stored before phones were normalised (docs/product-rules.md, "UK compliance").
    const { pool } = await import("@/lib/db");
    const { normalisePendingPhones } = await import("@/lib/leads/screening");
    void normalisePendingPhones(pool()).catch((error: Error) =>
      console.error(`[phones] normalising stored phones stopped: ${error.message}`),
    );
  }
}
