// The cached catalogue pages (home, category pages, sitemap, GET /api/categories) answered by the
// HTTP server itself (scripts/server.mjs) without entering Next.js's request handling, whose own
// cost per request is several times that of writing the response. It holds what Next.js answered
// from its cache (or rendered into it) for a plain document request, and serves it again while the
// catalogue version is the one read before Next.js answered: a change commits a new version in its
// own transaction (docs/product-rules.md, "Catalogue pages from cache"), so each instance's next
// request after it goes back to Next.js.
import { gzipSync } from "node:zlib";
import { currentVersion } from "./cache-handler.mjs";

/** Same lifetime as the pages' `revalidate` (app/layout.tsx): the footer's year follows the calendar. */
const MAX_AGE_MS = 3600 * 1000;
const MAX_ENTRIES = 2000;
const PACKAGES = new Set(["starter", "standard", "premium"]);
const LOCATIONS = new Set(["USA", "UK"]);
const CATEGORY_PATH = /^\/category\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Client-router requests (RSC payloads, prefetches, actions) and partial ones are Next.js's alone.
const ROUTER_HEADERS = [
  "rsc",
  "next-router-prefetch",
  "next-router-state-tree",
  "next-url",
  "next-action",
  "range",
];
// Headers that belong to one response on one connection, not to the page.
const PER_RESPONSE = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "etag",
]);

/** @type {Map<string, { version: string; at: number; headers: Record<string, string | string[]>; body: Buffer; gzip?: Buffer }>} */
const entries = (globalThis.__leadmarketFrontCache ??= new Map());

/** The key of a request this cache may answer, or undefined. */
function keyOf(request) {
  if (request.method !== "GET") return undefined;
  if (ROUTER_HEADERS.some((name) => request.headers[name] !== undefined)) return undefined;
  const url = new URL(request.url ?? "/", "http://local");
  const { pathname, searchParams } = url;
  const query = [...searchParams.keys()];
  if (["/", "/api/categories", "/sitemap.xml"].includes(pathname)) return query.length ? undefined : pathname;
  if (!CATEGORY_PATH.test(pathname)) return undefined;
  // A category page for one country and package (the rewrites in next.config.ts): only those two
  // parameters, each once, with a known value.
  const allowed = { package: PACKAGES, location: LOCATIONS };
  for (const name of query) {
    if (!(name in allowed) || searchParams.getAll(name).length !== 1) return undefined;
    if (
      !allowed[name].has(name === "location" ? searchParams.get(name).toUpperCase() : searchParams.get(name))
    )
      return undefined;
  }
  return query.length ? `${pathname}?${[...searchParams].sort().join("&")}` : pathname;
}

function acceptsGzip(request) {
  return /\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""));
}

/**
 * Answers the request from this cache (true), or prepares to keep what Next.js answers (false:
 * the caller hands the request to Next.js).
 */
export async function serveFromFrontCache(request, response) {
  const key = keyOf(request);
  if (!key) return false;
  const version = await currentVersion();
  if (version === undefined) return false;
  const entry = entries.get(key);
  if (entry && entry.version === version && Date.now() - entry.at < MAX_AGE_MS) {
    const gzip = acceptsGzip(request);
    if (gzip) entry.gzip ??= gzipSync(entry.body);
    const body = gzip ? entry.gzip : entry.body;
    response.writeHead(200, {
      ...entry.headers,
      ...(gzip ? { "content-encoding": "gzip" } : {}),
      "content-length": body.length,
    });
    response.end(body);
    return true;
  }
  keep(request, response, key, version);
  return false;
}

/** Collects Next.js's answer (uncompressed: the request's accept-encoding is dropped) for `key`. */
function keep(request, response, key, version) {
  delete request.headers["accept-encoding"];
  const chunks = [];
  const write = response.write.bind(response);
  const end = response.end.bind(response);
  response.write = (chunk, ...rest) => {
    if (chunk && typeof chunk !== "function") chunks.push(Buffer.from(chunk));
    return write(chunk, ...rest);
  };
  response.end = (chunk, ...rest) => {
    if (chunk && typeof chunk !== "function") chunks.push(Buffer.from(chunk));
    return end(chunk, ...rest);
  };
  response.on("finish", () => {
    const cache = String(response.getHeader("x-nextjs-cache") ?? "");
    // Only what Next.js itself serves from its cache: a 200 marked HIT, or MISS when just rendered.
    if (response.statusCode !== 200 || !["HIT", "MISS"].includes(cache)) return;
    if (response.getHeader("content-encoding")) return;
    const headers = {};
    for (const [name, value] of Object.entries(response.getHeaders())) {
      if (!PER_RESPONSE.has(name) && value !== undefined)
        headers[name] = typeof value === "number" ? String(value) : value;
    }
    headers["x-nextjs-cache"] = "HIT";
    const vary = [headers.vary].flat().filter(Boolean).join(", ");
    headers.vary = /accept-encoding/i.test(vary)
      ? vary
      : [vary, "Accept-Encoding"].filter(Boolean).join(", ");
    entries.delete(key);
    entries.set(key, { version, at: Date.now(), headers, body: Buffer.concat(chunks) });
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value);
  });
}
