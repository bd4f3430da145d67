import "server-only";
import { BusyError, Limiter } from "@/lib/concurrency";
import { POOL_MAX, POOL_RESERVE, transaction, type Tx } from "@/lib/db";
import { tooManyRequests } from "@/lib/errors";
import { IN_FLIGHT_PER_ADDRESS } from "@/lib/http/in-flight-limit.mjs";

// Queries a visitor can make cost seconds of database time (docs/product-rules.md, "Expensive
// public queries"): what an exclusion list removes, what an email bought before, a segment's
// preview rows. A request that runs one holds a permit of this process from before its first
// query (the rate limits' own transactions included, which wait on each other per bucket) to its
// answer: never more than the pool's connections less its reserve. Each such statement runs under
// a timeout that PostgreSQL enforces itself (Prisma's transaction timeout only stops waiting for a
// query, it does not stop the query).

/** At most this many requests with an expensive query run at once per instance; one more answers 503. */
export const EXPENSIVE_QUERY_SLOTS = POOL_MAX - POOL_RESERVE;
/**
 * And at most this many of them from one client address: its next ones wait their turn in line,
 * so an address sending checks back to back costs a place in the line each, not a refusal through
 * Next.js each (a client looping on 429s from 40 connections held the main thread).
 */
export const EXPENSIVE_QUERIES_PER_ADDRESS = 1;
/**
 * An address's checks waiting their turn at most (429 beyond), each for at most ADDRESS_WAIT_MS:
 * all the requests the custom server lets one address have in progress, so behind it no check
 * is refused here (its refusals cost microseconds, this one Next.js's milliseconds).
 */
const ADDRESS_QUEUE = IN_FLIGHT_PER_ADDRESS - EXPENSIVE_QUERIES_PER_ADDRESS;
const ADDRESS_WAIT_MS = 10_000;
/** The statement timeout of an expensive query unless the caller gives a shorter one. */
export const EXPENSIVE_QUERY_TIMEOUT_MS = 5_000;
const BUSY_RETRY_SECONDS = 5;
const TIMEOUT_RETRY_SECONDS = 30;
// PostgreSQL's query_canceled: the statement timeout (or a cancel request) stopped the statement.
const QUERY_CANCELED = "57014";

function wasCanceled(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const { code, originalCode, message, cause } = error as {
    code?: unknown;
    originalCode?: unknown;
    message?: unknown;
    cause?: unknown;
  };
  if (code === QUERY_CANCELED || originalCode === QUERY_CANCELED) return true;
  if (typeof message === "string" && message.includes("canceling statement due to statement timeout")) {
    return true;
  }
  return wasCanceled(cause, depth + 1);
}

function busy(): BusyError {
  return new BusyError(
    "The server is busy counting for other visitors. Please try again in a moment.",
    BUSY_RETRY_SECONDS,
  );
}

function tooManyAtOnce() {
  return tooManyRequests(
    "Too many such checks from your address at once. Please wait for one to finish.",
    BUSY_RETRY_SECONDS,
  );
}

const permits = new Limiter(EXPENSIVE_QUERY_SLOTS, 0, busy);
/** Per client address, its checks: one running, the next ones in line (dropped once idle). */
const addressLines = new Map<string, Limiter>();

/**
 * Runs `work` under a permit of this process: 503 with Retry-After at once when every permit is
 * taken; a `clientIp` already running its check waits for it to end first (null: a page's render,
 * counted only overall).
 */
export async function withQueryPermit<T>(clientIp: string | null, work: () => Promise<T>): Promise<T> {
  if (clientIp === null) return permits.run(work);
  // Refused at once, before waiting the address's turn; asked again when the turn comes.
  if (permits.full) throw busy();
  let line = addressLines.get(clientIp);
  if (!line) {
    line = new Limiter(EXPENSIVE_QUERIES_PER_ADDRESS, ADDRESS_QUEUE, tooManyAtOnce, ADDRESS_WAIT_MS);
    addressLines.set(clientIp, line);
  }
  try {
    return await line.run(() => permits.run(work));
  } finally {
    if (line.idle) addressLines.delete(clientIp);
  }
}

/**
 * Runs `work` in a transaction whose statements PostgreSQL stops after `timeoutMs`; a statement
 * stopped answers 503 with Retry-After (the transaction is rolled back and its connection goes
 * back to the pool). Call it under withQueryPermit().
 */
export async function timedQuery<T>(
  work: (tx: Tx) => Promise<T>,
  timeoutMs = EXPENSIVE_QUERY_TIMEOUT_MS,
): Promise<T> {
  try {
    return await transaction(
      async (tx) => {
        // One process per query: parallel workers would let one visitor's count take every core.
        await tx.$executeRaw`SELECT set_config('statement_timeout', ${String(timeoutMs)}, true),
                                    set_config('max_parallel_workers_per_gather', '0', true)`;
        return work(tx);
      },
      timeoutMs * 2 + 5_000,
    );
  } catch (error) {
    if (wasCanceled(error)) {
      throw new BusyError(
        "Counting this took too long and was stopped. Please try again later, or with a shorter list.",
        TIMEOUT_RETRY_SECONDS,
      );
    }
    throw error;
  }
}
