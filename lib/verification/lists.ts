import "server-only";
import { disposableEmailBlocklistSet } from "disposable-email-domains-js";
import freeEmailDomains from "free-email-domains";
import roleAddresses from "role-based-email-addresses";

// Maintained npm lists, read once per process. Domains are compared in lower-case ASCII, as
// parseAddress gives them.
const disposable: ReadonlySet<string> = disposableEmailBlocklistSet();
const freeMail: ReadonlySet<string> = new Set(freeEmailDomains);
const roles: ReadonlySet<string> = new Set(roleAddresses.map((role) => role.toLowerCase()));

/** A throwaway-inbox domain, or a subdomain of one (they hand out names under their own). */
export function isDisposableDomain(domain: string): boolean {
  for (let suffix = domain; ;) {
    if (disposable.has(suffix)) return true;
    const dot = suffix.indexOf(".");
    if (dot === -1) return false;
    suffix = suffix.slice(dot + 1);
  }
}

/** A free mailbox provider's domain (gmail.com, outlook.com, ...): a flag, not a verdict. */
export function isFreeMailDomain(domain: string): boolean {
  return freeMail.has(domain);
}

/** A local part naming a role (info@, sales@, ...), sub-addressing (`sales+eu`) ignored. */
export function isRoleAccount(local: string): boolean {
  const plus = local.indexOf("+");
  return roles.has((plus === -1 ? local : local.slice(0, plus)).toLowerCase());
}
