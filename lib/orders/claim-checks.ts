import "server-only";
import { env } from "@/lib/env";
import { recordVerifierError, reserve } from "@/lib/leads/recheck";
import { getEmailVerifierApiKey } from "@/lib/settings";
import { mailDomainChecker, zeroBounce } from "@/lib/verification/configured";
import { verifyAddresses } from "@/lib/verification/verify-addresses";

// What a replacement claim's reported addresses are found to be when the claim arrives
// (docs/product-rules.md, "Replacement claims"): invalid, confirmed deliverable by the provider, or
// unconfirmed (the buyer's word stands).

export type Verdict = { verdict: "invalid" | "valid" | "unconfirmed"; reason: string | null };
export type Checked = { verdicts: Map<string, Verdict>; providerAnswered: boolean; checkedAt: Date };

/** The check at the claim, outside any lock: our checks, then the provider within the month's limit. */
export async function checkReported(emails: string[], now: Date): Promise<Checked> {
  let provider = zeroBounce(await getEmailVerifierApiKey()) ?? undefined;
  const month = now.toISOString().slice(0, 7) + "-01";
  if (provider && !(await reserve(month, emails.length, env().EMAIL_VERIFIER_MONTHLY_LIMIT ?? null))) {
    await recordVerifierError(
      "The monthly limit of addresses sent to the verification provider was reached",
      now,
    );
    provider = undefined;
  }
  const { checks, providerError } = await verifyAddresses(emails, { domains: mailDomainChecker(), provider });
  if (providerError) await recordVerifierError(providerError.message, now);
  const verdicts = new Map<string, Verdict>();
  checks.forEach((check, index) => {
    const verdict =
      check.status === "invalid" ? "invalid" : check.status === "valid" ? "valid" : "unconfirmed";
    verdicts.set(emails[index], { verdict, reason: check.reason });
  });
  return { verdicts, providerAnswered: provider !== undefined && providerError === null, checkedAt: now };
}
