// The production HTTP server: Next.js's request handler behind a plain Node server, which answers
// 400 for a malformed URL, 429 to a client address with too many requests in progress
// (lib/http/in-flight-limit.mjs) or refused under a window limit until its Retry-After
// (lib/http/standing-refusals.mjs), lets requests into Next.js one per event-loop turn, the client
// addresses with the fewest requests inside first (lib/http/admission.mjs), and stamps each request
// with the TCP peer's address (lib/api/client-address.ts reads it). Route handlers cannot see the
// socket, and Next.js keeps a client's own X-Forwarded-For as it is, so without this a client could
// choose the address its rate limits are counted under.
// Usage: node scripts/server.mjs [-p port] [-H hostname] [--listen-after-stdin]. With
// --listen-after-stdin it loads Next.js but listens only once a line arrives on stdin: the first
// start loads Next.js while the demo data is being seeded (scripts/start.ts).
import { createServer } from "node:http";
import next from "next";
import { serveFromFrontCache } from "../lib/categories/front-cache.mjs";
import { closeAfterEarlyAnswer } from "../lib/http/early-answer.mjs";
import { admission } from "../lib/http/admission.mjs";
import { inFlightLimit } from "../lib/http/in-flight-limit.mjs";
import { standingRefusals } from "../lib/http/standing-refusals.mjs";

const SOCKET_ADDRESS_HEADER = "x-leadmarket-socket-address";
// The same setting lib/env.ts validates (0 to 10); the route handlers' limits read that value.
const admitted = inFlightLimit(Number.parseInt(process.env.TRUST_PROXY_HOPS ?? "0", 10) || 0);
const enter = admission();
const refusals = standingRefusals();
// Requests in progress in this process: downloads give way to them (lib/limits/main-thread-share.ts).
const inProgress = (globalThis.__leadmarketRequestsInProgress ??= { count: 0 });

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
};
const port = Number(option("-p", "3000"));
// Without -H, every interface (IPv4 and IPv6), as `next start` does.
const hostname = option("-H", undefined);

const app = next({ dev: false, hostname: hostname ?? "localhost", port });
await app.prepare();
const handle = app.getRequestHandler();

/** Whether the path is valid percent-encoding; Next.js's own decoding of it would answer 500. */
function wellFormedPath(url) {
  try {
    decodeURIComponent((url ?? "/").split("?")[0]);
    return true;
  } catch {
    return false;
  }
}

const server = createServer((request, response) => {
  if (!wellFormedPath(request.url)) {
    // Checked here rather than in a Next.js proxy: a proxy makes Next buffer every matched
    // request's body (and cut it at 10 MB), which uploads and imports cannot afford.
    response.writeHead(400, { "content-type": "application/json", "x-content-type-options": "nosniff" });
    response.end(JSON.stringify({ success: false, message: "Malformed URL" }));
    return;
  }
  request.headers[SOCKET_ADDRESS_HEADER] = request.socket.remoteAddress ?? "";
  closeAfterEarlyAnswer(request, response);
  const address = admitted(request, response);
  if (address === null) return;
  // A client refused under a window limit is refused again here until its Retry-After
  // (lib/http/standing-refusals.mjs): no work that downloads should give way to.
  if (refusals.answer(address, request, response)) return;
  inProgress.count += 1;
  response.once("close", () => (inProgress.count -= 1));
  refusals.watch(address, request, response);
  // Cached catalogue pages are answered without entering Next.js (lib/categories/front-cache.mjs);
  // the rest enter it one per turn of the event loop (lib/http/admission.mjs).
  serveFromFrontCache(request, response)
    .catch(() => false)
    .then((served) => served || enter(address, response, () => handle(request, response)));
});
if (args.includes("--listen-after-stdin")) {
  // Stdin closing without the line means the start gave up (or died): nothing to serve.
  const released = await new Promise((resolve) => {
    process.stdin.once("data", () => resolve(true));
    process.stdin.once("end", () => resolve(false));
  });
  if (!released) process.exit(1);
  process.stdin.pause();
}
const ready = () => console.log(` ✓ Ready on http://${hostname ?? "localhost"}:${port}`);
if (hostname) server.listen(port, hostname, ready);
else server.listen(port, ready);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
