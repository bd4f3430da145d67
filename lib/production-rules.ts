import "server-only";

// The rules a production start must pass, shared by lib/env.ts (inside Next) and scripts/start.ts
// (before migrations run), so neither can drift from the other.

export type ProductionSettings = {
  APP_SECRET?: string;
  PUBLIC_BASE_URL?: string;
  PAYMENTS_TEST_MODE?: string;
  ALLOW_TEST_PAYMENTS_IN_PRODUCTION?: string;
  // The whole environment (or the parsed one) may be passed as it is.
  [name: string]: unknown;
};

/** Why a production start must be refused, or null when it may go ahead. Blank values count as unset. */
export function productionRefusal(settings: ProductionSettings): string | null {
  if (!settings.APP_SECRET) {
    return "APP_SECRET is required in production: set it to at least 32 random characters, e.g. APP_SECRET=$(openssl rand -hex 32)";
  }
  // Payment return links, mails and the sitemap would otherwise point at localhost.
  if (!settings.PUBLIC_BASE_URL) {
    return "PUBLIC_BASE_URL is required in production: set it to the site's absolute URL, e.g. PUBLIC_BASE_URL=https://leads.example.com";
  }
  // The test payment page marks any order as paid: one forgotten variable would give leads away.
  if (settings.PAYMENTS_TEST_MODE === "1" && settings.ALLOW_TEST_PAYMENTS_IN_PRODUCTION !== "1") {
    return "PAYMENTS_TEST_MODE=1 is refused in production: anyone could mark an order as paid. Unset it, or set ALLOW_TEST_PAYMENTS_IN_PRODUCTION=1 for a deliberate demo.";
  }
  return null;
}

/** The warning printed at every start with test payments on, or null. */
export function testPaymentsWarning(testMode: boolean): string | null {
  if (!testMode) return null;
  const bar = "!".repeat(78);
  return [
    bar,
    "!! PAYMENTS_TEST_MODE=1: TEST PAYMENTS ARE ON. No money is taken; the test payment page",
    "!! marks any order as paid and its leads can be downloaded. Never run a real store like this.",
    bar,
  ].join("\n");
}
