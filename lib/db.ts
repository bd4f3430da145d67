import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { Pool } from "pg";
import { PrismaClient, type Prisma } from "@/lib/generated/prisma/client";
import { databaseUrl } from "@/lib/env";

// One pg pool per process, shared by Prisma (through its adapter) and by plain pg. Prisma (db(),
// with typed $queryRaw for SQL it cannot express) is the default. Plain pg on pool() serves COPY
// streams (lead import and phone registers; downloads take copyPool()), array-mode reads (Excel
// download), work on the client of pgTransaction() (re-check claims, paces), and single statements
// written as plain SQL (upload chunks, claim attempts, the re-check queue, the provider's budget).
// Kept on globalThis so dev reloads reuse it.
const globalForDb = globalThis as unknown as { pool?: Pool; copyPool?: Pool; prisma?: PrismaClient };

/** Connections of pool(). */
export const POOL_MAX = 10;
/**
 * Connections of pool() that expensive public queries (lib/limits/expensive-queries.ts) never
 * take, so that health checks, pages and payment callbacks always find one.
 */
export const POOL_RESERVE = 6;

export function pool(): Pool {
  if (!globalForDb.pool) {
    // A bounded wait for a connection: during an outage requests fail fast (503) instead of
    // queueing forever.
    globalForDb.pool = new Pool({
      connectionString: databaseUrl(),
      max: POOL_MAX,
      connectionTimeoutMillis: 10_000,
    });
    watchConnections(globalForDb.pool, "database");
  }
  return globalForDb.pool;
}

/**
 * A connection can be cut by the server (restart, failover, terminate) while idle in the pool or
 * while checked out between two queries (a transaction waiting on the mail server, a COPY stream
 * waiting on a slow reader). Either way pg emits an error event, which would crash the process
 * without a listener; the next query on that connection fails instead, and the pool replaces it.
 */
function watchConnections(target: Pool, label: string): void {
  target.on("connect", (client) =>
    client.on("error", (error) => console.error(`[db] ${label} connection lost: ${error.message}`)),
  );
  // The pool repeats an idle client's error; the client's own listener has logged it.
  target.on("error", () => undefined);
}

/**
 * Connections for COPY streams that last as long as a client takes to read a download. Apart from
 * pool() so that slow readers wait for each other, never starve the pages and the API; idle ones
 * are closed soon, a burst of downloads is rare. A connection is waited for a few seconds at most
 * (lib/leads/download.ts answers 503 then).
 */
export function copyPool(): Pool {
  if (!globalForDb.copyPool) {
    globalForDb.copyPool = new Pool({
      connectionString: databaseUrl(),
      max: 10,
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 5000,
      allowExitOnIdle: true,
    });
    watchConnections(globalForDb.copyPool, "COPY");
  }
  return globalForDb.copyPool;
}

/** Closes every connection of this process (scripts and tests end with it). */
export async function closeDatabase(): Promise<void> {
  const { prisma, pool, copyPool } = globalForDb;
  globalForDb.prisma = globalForDb.pool = globalForDb.copyPool = undefined;
  await prisma?.$disconnect();
  await Promise.all([pool?.end(), copyPool?.end()]);
}

function createClient(): PrismaClient {
  return new PrismaClient({
    adapter: new PrismaPg(pool()),
    // Password hashes never leave lib/auth, which selects them explicitly.
    omit: { admin: { passwordHash: true } },
  });
}

export function db(): ReturnType<typeof createClient> {
  globalForDb.prisma ??= createClient();
  return globalForDb.prisma;
}

/** The client a transaction's work runs on: Prisma's models and typed raw SQL, on one connection. */
export type Tx = Prisma.TransactionClient;

// Work to start once a transaction has committed (e.g. delivering the mails it queued).
const commitHooks = new WeakMap<Tx, (() => void)[]>();

/**
 * Runs `hook` after the transaction of `tx` commits (never if it rolls back). Answers false when
 * `tx` is not inside transaction(): the caller then runs it itself.
 */
export function afterCommit(tx: Tx, hook: () => void): boolean {
  const hooks = commitHooks.get(tx);
  if (!hooks) return false;
  hooks.push(hook);
  return true;
}

/**
 * The transaction of domain work: committed when `work` returns, rolled back when it throws. The
 * other one, pgTransaction() (lib/pg-transaction.ts), is for work on a plain pg client: COPY cannot
 * run inside a Prisma transaction (docs/architecture.md, "Decisions"). Row locks and advisory locks are taken inside with `tx.$queryRaw`/`tx.$executeRaw`.
 * `timeoutMs` bounds the whole transaction (Prisma rolls back after it); a connection is waited for
 * as long as the pool's own bound, so an outage fails fast with the 503 of lib/api/errors.ts.
 */
export async function transaction<T>(work: (tx: Tx) => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const hooks: (() => void)[] = [];
  const result = await db().$transaction(
    async (tx) => {
      commitHooks.set(tx, hooks);
      return work(tx);
    },
    { maxWait: 10_000, timeout: timeoutMs },
  );
  for (const hook of hooks) hook();
  return result;
}
