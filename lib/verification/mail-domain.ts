import "server-only";
import type { Answer, StringAnswer } from "dns-packet";
import { queryServer } from "./dns-query";
import type { DnsServer } from "./dns-servers";

// Whether a domain accepts mail (RFC 5321 §5.1): its MX records, else its A/AAAA records (the
// implicit MX). A DNS failure (timeout, SERVFAIL, REFUSED, a truncated answer) is never a verdict.
// Our own queries (lib/verification/dns-query.ts) rather than node's resolver, because node does
// not give the TTL of MX records or of negative answers, and the cache keeps each answer for its
// own TTL.

/** `unanswered`: no verdict (the resolvers failed or the deadline passed); ask again later. */
export type DomainAnswer = "accepts_mail" | "no_mail_domain" | "null_mx" | "unanswered";

export type MailDomainOptions = {
  /** Tried in order; an empty list answers every domain `unanswered` (domain checks off). */
  servers: DnsServer[];
  /** How long one query waits for one server. */
  queryTimeoutMs?: number;
  /** How many domains one check() looks up at once. */
  concurrency?: number;
  /** How long one check() may wait in all, unless the caller gives its own deadline. */
  deadlineMs?: number;
  /** How many domains the cache holds; the oldest entries go first. */
  cacheSize?: number;
  /** The clock of the cache (milliseconds); tests move it. */
  now?: () => number;
};

// Bounds on how long an answer is trusted, whatever TTL it carries.
export const MAX_ANSWER_TTL_S = 3600;
export const FAILURE_TTL_S = 300;

const RCODE_NOERROR = 0;
const RCODE_NXDOMAIN = 3;

type Lookup = { answer: DomainAnswer; ttlSeconds: number };
type Reply = { rcode: number; records: Answer[]; negativeTtl: number } | null;

export class MailDomainChecker {
  private readonly servers: DnsServer[];
  private readonly queryTimeoutMs: number;
  private readonly concurrency: number;
  private readonly deadlineMs: number;
  private readonly cacheSize: number;
  private readonly now: () => number;
  private readonly cache = new Map<string, { answer: DomainAnswer; expiresAt: number }>();
  private readonly inFlight = new Map<string, Promise<DomainAnswer>>();

  constructor(options: MailDomainOptions) {
    this.servers = options.servers;
    this.queryTimeoutMs = options.queryTimeoutMs ?? 1500;
    this.concurrency = options.concurrency ?? 32;
    this.deadlineMs = options.deadlineMs ?? 5000;
    this.cacheSize = options.cacheSize ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The answer for each domain (lower-case ASCII, as parseAddress gives them), each looked up at
   * most once. Returns by `deadlineAt` (epoch milliseconds; default: deadlineMs from now) at the
   * latest: the domains not answered by then are `unanswered`.
   */
  async check(
    domains: Iterable<string>,
    deadlineAt = Date.now() + this.deadlineMs,
  ): Promise<Map<string, DomainAnswer>> {
    return (await this.checkUntil(domains, deadlineAt)).answers;
  }

  /** As check(), and whether the deadline cut it short: lookups were still waiting for answers. */
  async checkUntil(
    domains: Iterable<string>,
    deadlineAt: number,
  ): Promise<{ answers: Map<string, DomainAnswer>; cutShort: boolean }> {
    const answers = new Map<string, DomainAnswer>();
    const pending: string[] = [];
    for (const domain of new Set(domains)) {
      const cached = this.cached(domain);
      if (cached) answers.set(domain, cached);
      else pending.push(domain);
    }
    let timer: NodeJS.Timeout | undefined;
    let cutShort = false;
    const expired = new Promise<"unanswered">((resolve) => {
      timer = setTimeout(
        () => {
          cutShort = true;
          resolve("unanswered");
        },
        Math.max(0, deadlineAt - Date.now()),
      );
    });
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < pending.length && Date.now() < deadlineAt) {
        const domain = pending[next++];
        answers.set(domain, await Promise.race([this.lookupOnce(domain), expired]));
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(this.concurrency, pending.length) }, worker));
    } finally {
      clearTimeout(timer);
    }
    for (const domain of pending) if (!answers.has(domain)) answers.set(domain, "unanswered");
    return { answers, cutShort };
  }

  private cached(domain: string): DomainAnswer | undefined {
    const entry = this.cache.get(domain);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry.answer;
    this.cache.delete(domain);
    return undefined;
  }

  /** One lookup per domain at a time; its answer is cached when it ends, even past a deadline. */
  private lookupOnce(domain: string): Promise<DomainAnswer> {
    const running = this.inFlight.get(domain);
    if (running) return running;
    const lookup = this.lookup(domain).then(({ answer, ttlSeconds }) => {
      this.inFlight.delete(domain);
      this.remember(domain, answer, ttlSeconds);
      return answer;
    });
    this.inFlight.set(domain, lookup);
    return lookup;
  }

  private remember(domain: string, answer: DomainAnswer, ttlSeconds: number): void {
    const bound = answer === "unanswered" ? FAILURE_TTL_S : MAX_ANSWER_TTL_S;
    const seconds = Math.min(Math.max(0, ttlSeconds), bound);
    if (seconds === 0) return;
    this.cache.delete(domain);
    this.cache.set(domain, { answer, expiresAt: this.now() + seconds * 1000 });
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
  }

  private async lookup(domain: string): Promise<Lookup> {
    const failed: Lookup = { answer: "unanswered", ttlSeconds: FAILURE_TTL_S };
    const mx = await this.query(domain, "MX");
    if (!mx) return failed;
    if (mx.rcode === RCODE_NXDOMAIN) return { answer: "no_mail_domain", ttlSeconds: mx.negativeTtl };
    const exchanges = mx.records.filter((record) => record.type === "MX");
    if (exchanges.length > 0) {
      // RFC 7505: a single MX of preference 0 for the root (`0 .`) says the domain takes no mail.
      // An exchange naming the root among others is a misconfiguration; the others still count.
      const nullMx = exchanges.every((record) => record.data.exchange === "." || record.data.exchange === "");
      return { answer: nullMx ? "null_mx" : "accepts_mail", ttlSeconds: minTtl(exchanges) };
    }
    // No MX: the domain's own address is the implicit MX.
    const [a, aaaa] = await Promise.all([this.query(domain, "A"), this.query(domain, "AAAA")]);
    const addresses = [...(a?.records ?? []), ...(aaaa?.records ?? [])].filter(
      (record): record is StringAnswer => record.type === "A" || record.type === "AAAA",
    );
    if (addresses.length > 0) return { answer: "accepts_mail", ttlSeconds: minTtl(addresses) };
    if (!a || !aaaa) return failed;
    return {
      answer: "no_mail_domain",
      ttlSeconds: Math.min(mx.negativeTtl, a.negativeTtl, aaaa.negativeTtl),
    };
  }

  /** The first answer (NOERROR or NXDOMAIN) of the servers, tried in order; null when none gave one. */
  private async query(domain: string, type: "MX" | "A" | "AAAA"): Promise<Reply> {
    for (const server of this.servers) {
      try {
        const reply = await queryServer(server, domain, type, this.queryTimeoutMs);
        const { rcode, truncated } = reply;
        // A truncated answer may have lost its records: not a "no record" answer.
        if (truncated || (rcode !== RCODE_NOERROR && rcode !== RCODE_NXDOMAIN)) continue;
        return { rcode, records: reply.answers, negativeTtl: negativeTtl(reply.authorities) };
      } catch {
        // A timeout or a socket error: the next server, if any.
      }
    }
    return null;
  }
}

function minTtl(records: { ttl?: number }[]): number {
  return Math.min(...records.map((record) => record.ttl ?? 0));
}

/** RFC 2308 §5: a negative answer lives min(SOA TTL, SOA minimum); without an SOA, the failure bound. */
function negativeTtl(authorities: Answer[]): number {
  const soa = authorities.find((record) => record.type === "SOA");
  return soa ? Math.min(soa.ttl ?? 0, soa.data.minimum ?? 0) : FAILURE_TTL_S;
}
