import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { Pool, type PoolClient } from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { databaseUrl } from "@/lib/env";

// One pg pool per process, shared by Prisma (through its adapter) and by the few raw-SQL paths
// that need COPY, cursors or bulk statements. Kept on globalThis so dev reloads reuse it.
const globalForDb = globalThis as unknown as { pool?: Pool; copyPool?: Pool; prisma?: PrismaClient };

export function pool(): Pool {
  if (!globalForDb.pool) {
    // A bounded wait for a connection: during an outage requests fail fast (503) instead of
    // queueing forever.
    globalForDb.pool = new Pool({
      connectionString: databaseUrl(),
      max: 10,
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
 * are closed soon, a burst of downloads is rare.
 */
export function copyPool(): Pool {
  if (!globalForDb.copyPool) {
    globalForDb.copyPool = new Pool({
      connectionString: databaseUrl(),
      max: 10,
      idleTimeoutMillis: 5000,
      allowExitOnIdle: true,
    });
    watchConnections(globalForDb.copyPool, "COPY");
  }
  return globalForDb.copyPool;
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

// Work to start once a transaction has committed (e.g. delivering the mails it queued).
const commitHooks = new WeakMap<object, (() => void)[]>();

/**
 * Runs `hook` after the transaction of `client` commits (never if it rolls back). Answers false
 * when `client` is not inside withTransaction: the caller then runs it itself.
 */
export function afterCommit(client: object, hook: () => void): boolean {
  const hooks = commitHooks.get(client);
  if (!hooks) return false;
  hooks.push(hook);
  return true;
}

/**
 * Runs `work` in one transaction on one pooled connection: committed when it returns, rolled back
 * when it throws. For the raw-SQL paths that lock rows or take advisory locks.
 */
export async function withTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool().connect();
  const hooks: (() => void)[] = [];
  commitHooks.set(client, hooks);
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    commitHooks.delete(client);
    for (const hook of hooks) hook();
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    commitHooks.delete(client);
    client.release();
  }
}
