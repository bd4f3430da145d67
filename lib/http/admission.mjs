// The custom server's (scripts/server.mjs) turnstile in front of Next.js: one request enters per
// turn of the event loop. Next.js's work on a request that waits on no I/O (a refusal, an answer
// from memory) runs in one go, a few milliseconds of CPU, and requests that arrive together would
// all enter in the same turn: 16 from one client held the thread for over 100 ms, everyone else's
// requests waiting behind. The next to enter is from the waiting address with the fewest requests
// inside, so a visitor's request goes ahead of a crowd's. Entering costs one setImmediate when
// nothing waits. Plain JavaScript because the custom server loads it without a build.
import { InFlight } from "./in-flight.mjs";

/** A request that waited this long is answered 503 instead of entering. */
const ADMISSION_MAX_WAIT_MS = 10_000;

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
  let scheduled = false;

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(admitOne);
  };

  /** The waiting address with the fewest requests inside; the longest in line among equals. */
  function nextAddress() {
    let chosen;
    let fewest = Infinity;
    for (const address of waiting.keys()) {
      const count = inside.count(address);
      if (count < fewest) [chosen, fewest] = [address, count];
      if (count === 0) break;
    }
    return chosen;
  }

  function admitOne() {
    scheduled = false;
    const now = performance.now();
    for (let address = nextAddress(); address !== undefined; address = nextAddress()) {
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
