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

/** The provider with the key stored in Settings, else EMAIL_VERIFIER_API_KEY; null without either. */
export function zeroBounce(storedKey?: string | null): ZeroBounce | null {
  const apiKey = storedKey || env().EMAIL_VERIFIER_API_KEY;
  return apiKey ? new ZeroBounce({ apiKey, apiUrl: env().EMAIL_VERIFIER_API_URL }) : null;
}
