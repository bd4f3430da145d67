import "server-only";
import { emailVerifierApiKey, getSettings } from "@/lib/settings";
import { zeroBounce } from "@/lib/verification/configured";
import { configuredMonthlyLimit, lastVerifierError, monthUse } from "@/lib/verification/provider-budget";
import { ProviderError } from "@/lib/verification/zerobounce";
import type { VerificationStatusDto } from "@/lib/schemas/admin";

// The verification provider as the admin's Settings show it: its credits left (asked of the
// provider each time), this month's use against EMAIL_VERIFIER_MONTHLY_LIMIT, and the last error
// the re-checks or claim checks met (verifier_months). The key itself never leaves the server.

export async function getVerificationStatus(now = new Date()): Promise<VerificationStatusDto> {
  const [settings, thisMonth, lastError] = await Promise.all([
    getSettings(),
    monthUse(now),
    lastVerifierError(),
  ]);
  const { key, source } = emailVerifierApiKey(settings);
  let credits: number | null = null;
  let creditsError: string | null = null;
  const provider = zeroBounce(key);
  if (provider) {
    try {
      credits = await provider.credits();
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      creditsError = error.message;
    }
  }
  return {
    configured: source !== "none",
    source,
    credits,
    creditsError,
    sentThisMonth: thisMonth.sent,
    monthlyLimit: configuredMonthlyLimit(),
    lastError: lastError?.message ?? null,
    lastErrorAt: lastError?.at.toISOString() ?? null,
  };
}
