import "server-only";
import { readFileSync, readlinkSync } from "node:fs";
import { availableParallelism, setPriority } from "node:os";
import path from "node:path";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { Piscina } from "piscina";
import { AppError, tooLarge } from "@/lib/errors";

// Uploaded files are parsed, and passwords hashed, on a worker thread (piscina), each task within a
// deadline: a crafted file costs that thread at most PARSE_DEADLINE_MS, never the main thread's
// pages and health checks.
// The workers run the TypeScript sources through tsx (a runtime dependency), so the same entry
// files load under `npm start` (whose Next.js build bundles the caller, not the worker), under
// vitest and in scripts: they are named from the project root, the directory the app runs in.

/** The CPU time one file may take, from the moment a worker starts on it. */
export const PARSE_DEADLINE_MS = 2000;
/** How often a running parse's CPU time is read. */
const CHECK_MS = 100;
/**
 * The wall-clock bound besides: a worker starved of CPU by a loaded machine still ends. Where the
 * thread's CPU time cannot be read (no Linux /proc), the deadline itself counts on the clock.
 */
const WALL_CLOCK_FACTOR = 10;
/**
 * A worker thread's nice value (Linux): files and password hashes give way to the main thread and
 * the database on a busy machine, so four uploads at once no longer slow every page and health
 * check. The deadline counts the thread's own CPU time, so waiting for a core costs it nothing.
 */
const WORKER_NICE = 10;
/** A worker's heap: a file that slips past the size caps ends in a refusal, not the process's crash. */
const WORKER_HEAP_MB = 512;

/** What a worker answers: the task's value, or the refusal (an AppError) it threw. */
type Outcome<O> =
  { value: O } | { refused: { status: number; message: string; errors?: Record<string, string> } };
type Task<I> = { input: I; started: MessagePort };

/** The calling thread's Linux thread id, or null without /proc. */
function threadId(): string | null {
  try {
    return readlinkSync("/proc/thread-self").split("/").pop() ?? null;
  } catch {
    return null;
  }
}

/** The CPU time (ms) thread `tid` of this process has used, or null once it is gone. */
function threadCpuMs(tid: string): number | null {
  try {
    // utime and stime, the 14th and 15th fields, in clock ticks of 10 ms; the name before may hold spaces.
    const fields = readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Whether this worker thread's priority was lowered (each thread once). */
let lowered = false;

function lowerPriority(tid: string | null): void {
  if (lowered || tid === null) return;
  lowered = true;
  try {
    // A thread id names one thread to setpriority(2); lowering needs no privilege.
    setPriority(Number(tid), WORKER_NICE);
  } catch {
    // Where it cannot be set, the worker runs at the process's priority.
  }
}

let pool: Piscina | undefined;

function workerPool(): Piscina {
  return (pool ??= new Piscina({
    // The main thread keeps a core of its own (a 2-core machine gets one worker).
    maxThreads: Math.max(1, availableParallelism() - 1),
    // Kept: with none, piscina 5.3 starts no worker for the queued files once it stopped the last.
    minThreads: 1,
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
    const tid = threadId();
    lowerPriority(tid);
    started.postMessage(tid);
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
 * Stops `abort` once the worker thread `tid` has spent PARSE_DEADLINE_MS of CPU time since now, or
 * WALL_CLOCK_FACTOR times that on the clock; answers the cancel of the watch.
 */
function watchDeadline(tid: string | null, abort: AbortController): () => void {
  const wall = setTimeout(() => abort.abort(), PARSE_DEADLINE_MS * (tid ? WALL_CLOCK_FACTOR : 1));
  const start = tid === null ? null : threadCpuMs(tid);
  if (tid === null || start === null) return () => clearTimeout(wall);
  const check = setInterval(() => {
    const used = threadCpuMs(tid);
    if (used !== null && used - start >= PARSE_DEADLINE_MS) abort.abort();
  }, CHECK_MS);
  return () => {
    clearTimeout(wall);
    clearInterval(check);
  };
}

/**
 * The memory of bytes that hold all of it (the input, or each of a list of them), to move to the
 * worker instead of copying (copying a 10 MB file cost the main thread about 10 ms). Bytes that
 * share their memory, as Node's small Buffers do, are copied.
 */
function movable(input: unknown): ArrayBuffer[] {
  return (Array.isArray(input) ? input : [input]).flatMap((part: unknown) =>
    part instanceof Uint8Array &&
    part.buffer instanceof ArrayBuffer &&
    part.byteOffset === 0 &&
    part.byteLength === part.buffer.byteLength
      ? [part.buffer]
      : [],
  );
}

/**
 * Runs the default export of `entry` (a path from the project root, built with workerTask) on
 * `input` in the pool; bytes given as `input` (or in a list as it) are moved there, unusable here
 * afterwards. Past
 * PARSE_DEADLINE_MS of the worker's CPU time the worker is terminated and `tooComplex` is thrown;
 * so it is when the file fills the worker's heap. A refusal is rethrown as it was.
 */
export async function runOffThread<I, O>(entry: string, input: I, tooComplex: () => Error): Promise<O> {
  const { port1, port2 } = new MessageChannel();
  const abort = new AbortController();
  let stopWatching = () => {};
  port1.once("message", (tid: string | null) => {
    stopWatching = watchDeadline(tid, abort);
  });
  try {
    const outcome: Outcome<O> = await workerPool().run(
      { input, started: port2 },
      {
        filename: path.join(/* turbopackIgnore: true */ process.cwd(), entry),
        signal: abort.signal,
        transferList: [port2, ...movable(input)],
      },
    );
    if ("value" in outcome) return outcome.value;
    const { status, message, errors } = outcome.refused;
    throw new AppError(status, message, errors);
  } catch (error) {
    const outOfMemory = (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY";
    if (abort.signal.aborted || outOfMemory) throw tooComplex();
    throw error;
  } finally {
    stopWatching();
    port1.close();
  }
}

/** The refusal of a file that takes longer than the deadline to read (413), with what to do about it. */
export function tooComplexFile(advice: string): AppError {
  const message = `The file is too complex to read within ${PARSE_DEADLINE_MS / 1000} seconds. ${advice}`;
  return tooLarge(message, { file: message });
}
