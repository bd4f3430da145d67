import "server-only";
import { isDisposableDomain, isFreeMailDomain, isRoleAccount } from "./lists";
import type { MailDomainChecker } from "./mail-domain";
import { parseAddress, type MailAddress } from "./syntax";
import { BATCH_LIMIT, ProviderError, type ProviderVerdict, type ZeroBounce } from "./zerobounce";

// The checks of a batch of addresses, cheapest first: syntax, the disposable list, the domains
// (each once), then the mailbox provider for the addresses still standing. Our own checks only
// ever find an address invalid; only the provider can call one valid.

export type EmailStatus = "valid" | "accept_all" | "unknown" | "invalid";

export type AddressCheck = {
  /** null: no verdict; the address keeps the status it has and is checked again later. */
  status: EmailStatus | null;
  /** Why: `syntax`, `disposable`, `no_mail_domain`, `null_mx`, `provider:<sub-status>`; else null. */
  reason: string | null;
  roleAccount: boolean;
  freeMail: boolean;
};

export type VerifyOptions = {
  domains: MailDomainChecker;
  /** The mailbox provider, when one is configured. */
  provider?: ZeroBounce;
  /**
   * Books the provider's budget for the distinct addresses still standing and answers how many of
   * them it may be sent (the first ones); the others get no verdict. Unset: all of them.
   */
  allowProvider?: (addresses: number) => Promise<number>;
  /** When the domain checks must have answered (epoch milliseconds); the checker's default else. */
  deadlineAt?: number;
};

export type VerifyResult = {
  /** One per address, in the order given. */
  checks: AddressCheck[];
  /** Why the provider gave no verdicts (the ones after it failed are missing too), for the admin. */
  providerError: ProviderError | null;
};

/** Whether a check's verdict is the provider's: ours only ever find an address invalid, for our reasons. */
export function isProviderVerdict(check: AddressCheck): boolean {
  return (
    check.status !== null && (check.status !== "invalid" || (check.reason ?? "").startsWith("provider:"))
  );
}

// What the lists say of a domain, for the last domains seen (an import's rows share a few).
const DOMAIN_LISTS_SIZE = 10_000;
const domainLists = new Map<string, { disposable: boolean; freeMail: boolean }>();

function listsOf(domain: string): { disposable: boolean; freeMail: boolean } {
  let lists = domainLists.get(domain);
  if (!lists) {
    lists = { disposable: isDisposableDomain(domain), freeMail: isFreeMailDomain(domain) };
    if (domainLists.size >= DOMAIN_LISTS_SIZE) domainLists.clear();
    domainLists.set(domain, lists);
  }
  return lists;
}

/** The checks that need no lookup (syntax, the disposable list) and the flags, with the address read. */
export function localCheck(input: string): { address: MailAddress | null; check: AddressCheck } {
  const address = parseAddress(input);
  if (!address) {
    return { address, check: { status: "invalid", reason: "syntax", roleAccount: false, freeMail: false } };
  }
  const { disposable, freeMail } = listsOf(address.domain);
  const check: AddressCheck = {
    status: disposable ? "invalid" : null,
    reason: disposable ? "disposable" : null,
    roleAccount: isRoleAccount(address.local),
    freeMail,
  };
  return { address, check };
}

export async function verifyAddresses(
  addresses: readonly string[],
  options: VerifyOptions,
): Promise<VerifyResult> {
  const local = addresses.map(localCheck);
  const parsed = local.map(({ address }) => address);
  const checks = local.map(({ check }) => check);

  const standing = (index: number): boolean => parsed[index] !== null && checks[index].status === null;
  const domains = new Set<string>();
  parsed.forEach((address, index) => {
    if (address && standing(index)) domains.add(address.domain);
  });
  const answers = await options.domains.check(domains, options.deadlineAt);
  parsed.forEach((address, index) => {
    if (!address || !standing(index)) return;
    const answer = answers.get(address.domain);
    if (answer === "no_mail_domain" || answer === "null_mx")
      checks[index] = { ...checks[index], status: "invalid", reason: answer };
  });

  if (!options.provider) return { checks, providerError: null };
  // The provider is asked about each distinct address once, in its batches of 200.
  const byAddress = new Map<string, number[]>();
  parsed.forEach((address, index) => {
    if (!address || !standing(index)) return;
    const key = `${address.local}@${address.domain}`.toLowerCase();
    const indexes = byAddress.get(key);
    if (indexes) indexes.push(index);
    else byAddress.set(key, [index]);
  });
  let keys = [...byAddress.keys()];
  if (options.allowProvider) keys = keys.slice(0, await options.allowProvider(keys.length));
  for (let start = 0; start < keys.length; start += BATCH_LIMIT) {
    const batch = keys.slice(start, start + BATCH_LIMIT);
    let verdicts: Map<string, ProviderVerdict>;
    try {
      verdicts = await options.provider.validateBatch(batch);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      // The rest keep their statuses: a later check will ask again.
      return { checks, providerError: error };
    }
    for (const key of batch) {
      const verdict = verdicts.get(key);
      if (!verdict) continue;
      for (const index of byAddress.get(key) ?? []) checks[index] = { ...checks[index], ...verdict };
    }
  }
  return { checks, providerError: null };
}
