import "server-only";
import { availableParallelism } from "node:os";
import path from "node:path";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { Piscina } from "piscina";
import { AppError, tooLarge } from "@/lib/errors";

// Uploaded files are parsed on a worker thread (piscina), each within a deadline: a crafted file
// costs that thread at most PARSE_DEADLINE_MS, never the main thread's pages and health checks.
// The workers run the TypeScript sources through tsx (a runtime dependency), so the same entry
// files load under `npm start` (whose Next.js build bundles the caller, not the worker), under
// vitest and in scripts: they are named from the project root, the directory the app runs in.

/** How long one file may be parsed, from the moment a worker starts on it. */
export const PARSE_DEADLINE_MS = 2000;
/** A worker's heap: a file that slips past the size caps ends in a refusal, not the process's crash. */
const WORKER_HEAP_MB = 512;

/** What a worker answers: the task's value, or the refusal (an AppError) it threw. */
type Outcome<O> =
  { value: O } | { refused: { status: number; message: string; errors?: Record<string, string> } };
type Task<I> = { input: I; started: MessagePort };

let pool: Piscina | undefined;

function parsePool(): Piscina {
  return (pool ??= new Piscina({
    // The main thread keeps a core of its own (a 2-core machine gets one worker).
    maxThreads: Math.max(1, availableParallelism() - 1),
    minThreads: 0,
    idleTimeout: 60_000,
    execArgv: ["--conditions=react-server", "--import", "tsx"],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  }));
}

/**
 * A worker entry's default export: runs `parse` and answers its value, or the AppError it threw
 * as a refusal (an error crossing threads loses its class). Tells the caller when it starts, so
 * the deadline leaves out the time spent queued behind other files.
 */
export function workerTask<I, O>(
  parse: (input: I) => O | Promise<O>,
): (task: Task<I>) => Promise<Outcome<O>> {
  return async ({ input, started }) => {
    started.postMessage("started");
    started.close();
    try {
      return { value: await parse(input) };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { refused: { status: error.status, message: error.message, errors: error.errors } };
    }
  };
}

/**
 * Runs the default export of `entry` (a path from the project root, built with workerTask) on
 * `input` in the pool. Past PARSE_DEADLINE_MS of work the worker is terminated and `tooComplex`
 * is thrown; so it is when the file fills the worker's heap. A refusal is rethrown as it was.
 */
export async function parseOffThread<I, O>(entry: string, input: I, tooComplex: () => AppError): Promise<O> {
  const { port1, port2 } = new MessageChannel();
  const abort = new AbortController();
  let deadline: NodeJS.Timeout | undefined;
  port1.once("message", () => {
    deadline = setTimeout(() => abort.abort(), PARSE_DEADLINE_MS);
  });
  try {
    const outcome: Outcome<O> = await parsePool().run(
      { input, started: port2 },
      { filename: path.join(process.cwd(), entry), signal: abort.signal, transferList: [port2] },
    );
    if ("value" in outcome) return outcome.value;
    const { status, message, errors } = outcome.refused;
    throw new AppError(status, message, errors);
  } catch (error) {
    const outOfMemory = (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY";
    if (abort.signal.aborted || outOfMemory) throw tooComplex();
    throw error;
  } finally {
    clearTimeout(deadline);
    port1.close();
  }
}

/** The refusal of a file that takes longer than the deadline to read (413), with what to do about it. */
export function tooComplexFile(advice: string): AppError {
  const message = `The file is too complex to read within ${PARSE_DEADLINE_MS / 1000} seconds. ${advice}`;
  return tooLarge(message, { file: message });
}
