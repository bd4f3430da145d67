// The custom server's (scripts/server.mjs) memory of standing refusals. A route marks a 429 as
// standing (STANDING_REFUSAL_HEADER) when a window limit refused it that every request of the
// client to that path with that kind of body is counted against, so each of them would be refused
// the same way until its Retry-After. The server keeps that answer and gives it again itself to the
// same client address, method, path and body kind (the content type's media type: a route may
// count its file uploads against limits its JSON requests are not) until then, a second later
// (STANDING_REFUSAL_DELAY_MS): a client that ignores Retry-After costs a timer a request instead
// of Next.js's milliseconds and a database transaction (the limit's count), and cannot loop on
// the refusal. Plain JavaScript because the custom server loads it without a build.

/** Set by route() on a standing refusal; the server takes it off before the answer leaves. */
export const STANDING_REFUSAL_HEADER = "x-leadmarket-standing-refusal";
/** The refused answers kept at once; beyond it the oldest goes (it is then counted again). */
const MAX_ENTRIES = 10_000;
/** The body kept: an error's JSON is far smaller, and a bigger one is not kept. */
const MAX_BODY_BYTES = 4096;
/**
 * A refusal given again waits this long first (its Retry-After's end at the latest), as nginx's
 * limit_req delays: a client that ignores Retry-After and asks again at once, on connection after
 * connection, gets at most one answer a second per request it has in progress (the server lets an
 * address have 16), instead of a thousand a second that each cost the main thread a connection.
 */
export const STANDING_REFUSAL_DELAY_MS = 1000;
/** Refusals held at once in the process; past it the rest are given at once. */
const MAX_HELD = 2000;
/** Headers of one response on one connection, or counted down when the refusal is given again. */
const NOT_KEPT = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "set-cookie",
  "retry-after",
  "ratelimit-remaining",
  "ratelimit-reset",
]);

/** @typedef {{ until: number; headers: Record<string, string | number | string[]>; body: Buffer }} Refusal */

/**
 * Returns `{ answer, watch }`. `answer(address, request, response)` gives a standing refusal kept
 * for the request's client address, method, path and body kind, after its delay (true), or
 * answers false. `watch(address,
 * request, response)` keeps the answer Next.js gives the request when it is a standing refusal.
 */
export function standingRefusals() {
  /** @type {Map<string, Refusal>} */
  const kept = new Map();
  const keyOf = (address, request) => {
    const path = (request.url ?? "/").split("?")[0];
    const kind = (request.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    return `${address} ${request.method} ${path} ${kind}`;
  };

  let held = 0;

  function answer(address, request, response) {
    const key = keyOf(address, request);
    const refusal = kept.get(key);
    if (!refusal) return false;
    const left = refusal.until - Date.now();
    if (left <= 0) {
      kept.delete(key);
      return false;
    }
    if (held >= MAX_HELD) {
      give(refusal, response);
      return true;
    }
    held += 1;
    const timer = setTimeout(
      () => {
        response.off("close", cancel);
        held -= 1;
        give(refusal, response);
      },
      Math.min(STANDING_REFUSAL_DELAY_MS, left),
    );
    // The client went away while its refusal waited.
    const cancel = () => {
      clearTimeout(timer);
      held -= 1;
    };
    response.once("close", cancel);
    return true;
  }

  /** Writes the kept refusal, its Retry-After counted down. */
  function give(refusal, response) {
    const seconds = Math.max(1, Math.ceil((refusal.until - Date.now()) / 1000));
    response.writeHead(429, {
      ...refusal.headers,
      "retry-after": String(seconds),
      "ratelimit-remaining": "0",
      "ratelimit-reset": String(seconds),
      "content-length": refusal.body.length,
    });
    response.end(refusal.body);
  }

  function watch(address, request, response) {
    const { writeHead, write, end } = response;
    // Next.js sends its headers (writeHead, or flushHeaders through it) before the body; only a
    // standing refusal's body is then collected, so other answers pay one wrapped call.
    response.writeHead = function (...args) {
      if (response.statusCode === 429 && response.getHeader(STANDING_REFUSAL_HEADER) !== undefined) {
        response.removeHeader(STANDING_REFUSAL_HEADER);
        keepBody(address, request, response, write, end);
      }
      return writeHead.apply(this, args);
    };
  }

  /** Collects the refusal's body as it is written and keeps the refusal once it ends. */
  function keepBody(address, request, response, write, end) {
    /** Undefined once the body is too big to be a refusal's JSON: not kept. */
    let chunks = [];
    let size = 0;
    const collect = (chunk) => {
      if (!chunks || !chunk || typeof chunk === "function") return;
      const buffer = Buffer.from(chunk);
      size += buffer.length;
      chunks = size <= MAX_BODY_BYTES ? [...chunks, buffer] : undefined;
    };
    response.write = function (chunk, ...rest) {
      collect(chunk);
      return write.call(this, chunk, ...rest);
    };
    response.end = function (chunk, ...rest) {
      collect(chunk);
      const ended = end.call(this, chunk, ...rest);
      const seconds = Number(response.getHeader("retry-after"));
      if (chunks && Number.isInteger(seconds) && seconds > 0) {
        const headers = {};
        for (const [name, value] of Object.entries(response.getHeaders())) {
          if (!NOT_KEPT.has(name) && value !== undefined) headers[name] = value;
        }
        const key = keyOf(address, request);
        kept.delete(key);
        kept.set(key, { until: Date.now() + seconds * 1000, headers, body: Buffer.concat(chunks) });
        if (kept.size > MAX_ENTRIES) kept.delete(kept.keys().next().value);
      }
      return ended;
    };
  }

  return { answer, watch };
}
