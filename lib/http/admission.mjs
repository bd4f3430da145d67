// The custom server's (scripts/server.mjs) turnstile in front of Next.js: one request enters per
// turn of the event loop. Next.js's work on a request that waits on no I/O (a refusal, an answer
// from memory) runs in one go, a few milliseconds of CPU, and requests that arrive together would
// all enter in the same turn: 16 from one client held the thread for over 100 ms, everyone else's
// requests waiting behind. The next to enter is from the waiting address that has the least going
// on: its requests inside, plus those it sent in recently (a count that halves every second). So a
// visitor's request goes ahead of a crowd's, and of clients that each keep one request going
// back to back, which would otherwise tie with the visitor on requests inside and go first as often.
// Entering costs one setImmediate when nothing waits. Plain JavaScript because the custom server
// loads it without a build.
import { InFlight } from "./in-flight.mjs";

/** A request that waited this long is answered 503 instead of entering. */
const ADMISSION_MAX_WAIT_MS = 10_000;
/** An address's count of requests let in halves in this time. */
const HALF_LIFE_MS = 1000;
/** Below this, a count is as good as none and is forgotten (sweeps run every SWEEP_EVERY entries). */
const FORGOTTEN = 0.01;
const SWEEP_EVERY = 1000;

/**
 * Returns `enter(address, response, handle)`: calls `handle` when the request's turn comes, or
 * answers 503 when it waited over ADMISSION_MAX_WAIT_MS. A request whose client went away while
 * waiting is dropped.
 */
export function admission(maxWaitMs = ADMISSION_MAX_WAIT_MS) {
  /** Per address, its waiting requests in arrival order; the Map's order is the addresses' turns. */
  const waiting = new Map();
  /** Per address, its requests let in and not yet answered. */
  const inside = new InFlight();
  /** Per address, its requests let in, each counted less as it ages: the count and when it was. */
  const recent = new Map();
  let entered = 0;
  let scheduled = false;

  const recentCount = (address, now) => {
    const last = recent.get(address);
    return last ? last.count * 2 ** ((last.at - now) / HALF_LIFE_MS) : 0;
  };

  function countEntry(address, now) {
    recent.set(address, { count: recentCount(address, now) + 1, at: now });
    entered += 1;
    if (entered % SWEEP_EVERY !== 0) return;
    for (const key of recent.keys()) {
      if (!waiting.has(key) && recentCount(key, now) < FORGOTTEN) recent.delete(key);
    }
  }

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(admitOne);
  };

  /** The waiting address with the least going on (inside and recent); the longest in line among equals. */
  function nextAddress(now) {
    let chosen;
    let least = Infinity;
    for (const address of waiting.keys()) {
      const load = inside.count(address) + recentCount(address, now);
      if (load < least) [chosen, least] = [address, load];
      if (load === 0) break;
    }
    return chosen;
  }

  function admitOne() {
    scheduled = false;
    const now = performance.now();
    for (let address = nextAddress(now); address !== undefined; address = nextAddress(now)) {
      const queue = waiting.get(address);
      const entry = queue.shift();
      // The address goes to the back of the line, or leaves it when it has nothing more.
      waiting.delete(address);
      if (queue.length > 0) waiting.set(address, queue);
      if (entry.response.destroyed || entry.response.writableEnded) continue;
      if (now - entry.since > maxWaitMs) {
        busy(entry.response);
        continue;
      }
      inside.take(address);
      countEntry(address, now);
      entry.response.once("close", () => inside.give(address));
      entry.handle();
      break;
    }
    if (waiting.size > 0) schedule();
  }

  return (address, response, handle) => {
    const entry = { response, handle, since: performance.now() };
    const queue = waiting.get(address);
    if (queue) queue.push(entry);
    else waiting.set(address, [entry]);
    schedule();
  };
}

function busy(response) {
  response.writeHead(503, {
    "content-type": "application/json",
    "retry-after": "5",
    "x-content-type-options": "nosniff",
  });
  response.end(
    JSON.stringify({ success: false, message: "The server is busy. Please try again in a moment." }),
  );
}
