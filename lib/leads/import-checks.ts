import "server-only";
import type { LeadInput } from "@/lib/leads/insert";
import type { ImportRefusal } from "@/lib/schemas/admin";
import type { DomainAnswer, MailDomainChecker } from "@/lib/verification/mail-domain";

// The domain checks of an import (docs/product-rules.md, "Verification"). Each distinct domain of
// the file is looked up once. The file is read ahead of the batch being stored, and the domains
// new in each batch are looked up as soon as it is parsed, after those of the batches before it
// (so the first batches are answered first), overlapping the parsing and the COPY. The import
// waits on DNS for at most IMPORT_DNS_WAIT_MS in all, whatever the size of the file: with a
// resolver that never answers, that is what it costs, and the domains not answered by then get no
// verdict (their rows are imported as they are).

const IMPORT_DNS_WAIT_MS = 5000;
// Batches parsed, their lookups under way or queued, while the one before them is stored: enough to
// keep the lookups going. A row parsed ahead lives until it is stored, long enough to reach V8's old
// generation, so each one ahead adds to the heap an import leaves: with 20 (20,000 rows) the
// server's memory grew 220-310 MB during a 100,000-row import, with 4 about 140 MB, as fast.
const READ_AHEAD = 4;
// The reason of an imported lead waiting for the provider's verdict: the re-checks claim it
// (lib/leads/recheck).
const QUEUED_FOR_PROVIDER = "queued";

/** A row refused, with its line in the file. */
export type Refused = { line: number; code: ImportRefusal; reason: string };
/** A row read, with its address's domain. */
export type Row = { line: number; lead: LeadInput; domain: string };

export type DomainCheckOptions = {
  domains: MailDomainChecker;
  /** A provider is configured: imported leads are queued for its verdict. */
  queued: boolean;
  now: Date;
  /** Takes the refused rows, in line order. */
  refuse: (refused: Refused) => void;
  /** The import's whole wait on DNS (default IMPORT_DNS_WAIT_MS). */
  waitMs?: number;
};

const DOMAIN_REFUSALS: Record<"no_mail_domain" | "null_mx", (domain: string) => string> = {
  no_mail_domain: (domain) => `Email domain "${domain}" does not exist or has no mail server`,
  null_mx: (domain) => `Email domain "${domain}" accepts no mail (null MX)`,
};

/**
 * The batches' leads whose domains may take mail, with their check recorded; rows refused here or
 * before (items without a lead) go to `refuse`, in the order of the batches.
 */
export async function* domainChecked(
  batches: AsyncIterable<(Row | Refused)[]>,
  options: DomainCheckOptions,
): AsyncGenerator<LeadInput[]> {
  const answers = new Map<string, DomainAnswer>();
  const asked = new Set<string>();
  // The wait not yet used, and since when the import has been waiting (null: not waiting).
  let waitLeft = options.waitMs ?? IMPORT_DNS_WAIT_MS;
  let waitingSince: number | null = null;
  // Set once lookups ran out of time: the resolvers do not answer, nothing more is asked.
  let outOfTime = false;
  // The lookups of the batches read so far, one batch after the other.
  let lookups = Promise.resolve();

  const ask = async (fresh: string[]): Promise<void> => {
    const now = Date.now();
    const left = waitLeft - (waitingSince === null ? 0 : now - waitingSince);
    if (left <= 0 || outOfTime) return;
    // Answered by the end of the wait left, so the waits that follow use up only what is left.
    const { answers: found, cutShort } = await options.domains.checkUntil(fresh, now + left);
    for (const [domain, answer] of found) answers.set(domain, answer);
    outOfTime ||= cutShort;
  };

  const lookUp = (items: (Row | Refused)[]): Parsed => {
    const fresh: string[] = [];
    for (const item of items) {
      if ("domain" in item && !asked.has(item.domain)) {
        asked.add(item.domain);
        fresh.push(item.domain);
      }
    }
    // The domains asked before are answered by the time this batch's turn comes.
    if (fresh.length === 0) return { items, looked: Promise.resolve() };
    const looked = lookups.then(() => ask(fresh));
    lookups = looked;
    // Awaited when the batch's turn comes, unless the import has failed by then.
    looked.catch(() => undefined);
    return { items, looked };
  };

  const judged = async ({ items, looked }: Parsed): Promise<LeadInput[]> => {
    waitingSince = Date.now();
    await looked;
    waitLeft = Math.max(0, waitLeft - (Date.now() - waitingSince));
    waitingSince = null;
    const leads: LeadInput[] = [];
    for (const item of items) {
      if (!("lead" in item)) {
        options.refuse(item);
        continue;
      }
      const answer = answers.get(item.domain) ?? "unanswered";
      if (answer === "no_mail_domain" || answer === "null_mx") {
        options.refuse({ line: item.line, code: answer, reason: DOMAIN_REFUSALS[answer](item.domain) });
        continue;
      }
      const { lead } = item;
      if (options.queued && lead.emailStatus !== "invalid") {
        // Our check does not end here: the re-checks ask the provider, and stamp the lead then.
        lead.emailStatusReason = QUEUED_FOR_PROVIDER;
      } else if (answer === "accepts_mail") {
        lead.emailCheckedAt = options.now;
      }
      leads.push(lead);
    }
    return leads;
  };

  for await (const parsed of readAhead(batches, READ_AHEAD, lookUp)) yield await judged(parsed);
}

type Parsed = { items: (Row | Refused)[]; looked: Promise<void> };

/**
 * The items of `source`, each mapped by `start` as soon as it arrives: `source` is read on its own,
 * up to `limit` items ahead of the reader. Its failure reaches the reader after the items before it.
 */
async function* readAhead<T, U>(
  source: AsyncIterable<T>,
  limit: number,
  start: (item: T) => U,
): AsyncGenerator<U> {
  const iterator = source[Symbol.asyncIterator]();
  const ready: U[] = [];
  let ended = false;
  let failure: { error: unknown } | undefined;
  let stopped = false;
  let wakeReader: (() => void) | undefined;
  let wakePump: (() => void) | undefined;
  const pump = (async () => {
    try {
      while (!stopped) {
        const next = await iterator.next();
        if (next.done) break;
        ready.push(start(next.value));
        wakeReader?.();
        while (ready.length >= limit && !stopped) await new Promise<void>((resolve) => (wakePump = resolve));
      }
    } catch (error) {
      failure = { error };
    }
    ended = true;
    wakeReader?.();
  })();
  try {
    for (;;) {
      const item = ready.shift();
      if (item !== undefined) {
        wakePump?.();
        yield item;
      } else if (failure) {
        throw failure.error;
      } else if (ended) {
        return;
      } else {
        await new Promise<void>((resolve) => (wakeReader = resolve));
      }
    }
  } finally {
    stopped = true;
    wakePump?.();
    // The source is closed (an upload read to its end) once the pump has let go of it.
    void pump.then(() => iterator.return?.()).catch(() => undefined);
  }
}
