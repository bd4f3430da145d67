// Every statement this process sends to PostgreSQL while some work runs, on any pg client (Prisma's
// adapter and plain pg alike): for a test that counts what an operation costs in round trips, and
// for bench:scale, which explains them.
import pg from "pg";

export type Statement = { text: string; values?: unknown[] };

/** Runs `work` and answers the statements sent meanwhile, in order. */
export async function recordStatements(work: () => Promise<unknown>): Promise<Statement[]> {
  const seen: Statement[] = [];
  const query = pg.Client.prototype.query;
  const patched = function (this: pg.Client, ...args: unknown[]) {
    const [config, values] = args as [unknown, unknown];
    if (typeof config === "string") seen.push({ text: config, values: values as unknown[] | undefined });
    else if (config && typeof config === "object" && "text" in config) {
      const { text, values: own } = config as { text: unknown; values?: unknown[] };
      if (typeof text === "string") seen.push({ text, values: own ?? (values as unknown[] | undefined) });
    }
    return (query as (...args: unknown[]) => unknown).apply(this, args);
  };
  pg.Client.prototype.query = patched as typeof query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query;
  }
  return seen;
}
