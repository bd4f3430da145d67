import "server-only";
import { BusyError } from "@/lib/concurrency";
import { POOL_MAX, POOL_RESERVE, transaction, type Tx } from "@/lib/db";

// Queries a visitor can make cost seconds of database time (docs/product-rules.md, "Expensive public queries"):
// what an exclusion list removes, what an email bought before, a segment's preview rows. Each runs
// under a permit of this process, never more than the pool's connections less its reserve, and
// under a statement timeout that PostgreSQL enforces itself (Prisma's transaction timeout only
// stops waiting for a query, it does not stop the query).

/** At most this many expensive queries run at once per instance; one more answers 503. */
export const EXPENSIVE_QUERY_SLOTS = POOL_MAX - POOL_RESERVE;
/** The statement timeout of an expensive query unless the caller gives a shorter one. */
export const EXPENSIVE_QUERY_TIMEOUT_MS = 5_000;
const BUSY_RETRY_SECONDS = 5;
const TIMEOUT_RETRY_SECONDS = 30;
// PostgreSQL's query_canceled: the statement timeout (or a cancel request) stopped the statement.
const QUERY_CANCELED = "57014";

let active = 0;

function wasCanceled(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const { code, originalCode, cause } = error as { code?: unknown; originalCode?: unknown; cause?: unknown };
  if (code === QUERY_CANCELED || originalCode === QUERY_CANCELED) return true;
  const message = (error as { message?: unknown }).message;
  if (typeof message === "string" && message.includes("canceling statement due to statement timeout"))
    return true;
  return wasCanceled(cause, depth + 1);
}

/**
 * Runs `work` in a transaction under a permit and a statement timeout of `timeoutMs`. 503 with
 * Retry-After at once when every permit is taken, and when a statement outlives the timeout (the
 * transaction is rolled back and its connection goes back to the pool).
 */
export async function expensiveQuery<T>(
  work: (tx: Tx) => Promise<T>,
  timeoutMs = EXPENSIVE_QUERY_TIMEOUT_MS,
): Promise<T> {
  if (active >= EXPENSIVE_QUERY_SLOTS) {
    throw new BusyError(
      "The server is busy counting for other visitors. Please try again in a moment.",
      BUSY_RETRY_SECONDS,
    );
  }
  active += 1;
  try {
    return await transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT set_config('statement_timeout', ${String(timeoutMs)}, true)`;
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
  } finally {
    active -= 1;
  }
}
