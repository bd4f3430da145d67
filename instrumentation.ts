// Validates the environment when the server starts, so a misconfiguration stops it at once
// instead of failing the first request; then starts the orders' background upkeep (expiry of
// abandoned checkouts, re-checks of pending payments).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { env } = await import("@/lib/env");
    env();
    const { startOrderMaintenance } = await import("@/lib/orders/maintenance");
    startOrderMaintenance();
  }
}
