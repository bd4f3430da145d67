import "server-only";
import { env } from "@/lib/env";
import { systemDnsServers } from "./dns-servers";
import { MailDomainChecker } from "./mail-domain";
import { ZeroBounce } from "./zerobounce";

// The process's checker and provider as the environment configures them.

let checker: MailDomainChecker | undefined;

/** One checker per process, so that every caller shares its cache. */
export function mailDomainChecker(): MailDomainChecker {
  checker ??= new MailDomainChecker({ servers: env().DNS_SERVERS ?? systemDnsServers() });
  return checker;
}

/** The provider for `apiKey` (a stored Settings key, else EMAIL_VERIFIER_API_KEY), or null without a key. */
export function zeroBounce(apiKey: string | null = env().EMAIL_VERIFIER_API_KEY ?? null): ZeroBounce | null {
  return apiKey ? new ZeroBounce({ apiKey, apiUrl: env().EMAIL_VERIFIER_API_URL }) : null;
}
