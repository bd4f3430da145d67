// What the HTTP server (scripts/server.mjs) answers itself, without entering Next.js's request
// handling, whose own cost per request is several times that of writing the response:
// - the cached catalogue pages (home, category pages, sitemap, GET /api/categories): what Next.js
//   answered from its cache (or rendered into it) for a plain document request, served again while
//   the catalogue version is the one read before Next.js answered: a change commits a new version
//   in its own transaction (docs/product-rules.md, "Catalogue pages from cache"), so each
//   instance's next request after it goes back to Next.js;
// - segment pages (category pages with facet filters: app/(site)/category/[id]/segment), which
//   Next.js renders for their query from nothing but the address and the catalogue: kept the same
//   way, one entry per segment, so equivalent addresses (values in another order, repeated, as a
//   comma list or as repeated keys) share it;
// - the lead previews (GET /api/leads and /api/leads/filter): a page of masked leads and its total
//   read nothing the catalogue version does not watch, so a page is kept the same way, one entry
//   per query, and a visitor walking deep pages costs the database nothing after the first;
// - the routes registered in lib/api/front-routes.ts, their handlers called directly.
import { gzipSync } from "node:zlib";
import { commaList, joinedValues } from "../http/query-values.mjs";
import { currentVersion } from "./cache-handler.mjs";

/** Same lifetime as the pages' `revalidate` (app/layout.tsx): the footer's year follows the calendar. */
const MAX_AGE_MS = 3600 * 1000;
/**
 * The entries each store keeps; the least recently used goes first beyond it. Segment pages and
 * preview pages are kept apart: any number of them must not push the list pages out.
 */
const MAX_STORE_ENTRIES = { pages: 2000, segments: 200, previews: 500 };
/** The preview routes and the query parameters each takes (lib/schemas/leads.ts). */
const PREVIEW_ROUTES = {
  "/api/leads": ["page", "pageSize"],
  "/api/leads/filter": ["category", "location", "page", "pageSize"],
};
const PACKAGES = new Set(["starter", "standard", "premium"]);
const LOCATIONS = new Set(["USA", "UK"]);
/** Keep in step with FACETS in lib/segments/vocabularies.ts, and the defaults with the segment page. */
const FACETS = ["region", "seniority", "department", "size", "revenue"];
/** The page's filters: the facets and the email quality (lib/email-quality.ts, "any" by default). */
const FILTERS = [...FACETS, "emailQuality"];
const DEFAULT_LOCATION = "USA";
const DEFAULT_PACKAGE = "starter";
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

/** The paths of the routes lib/api/front-routes.ts registers, by name, and their params. */
const FRONT_ROUTES = [{ name: "segment", path: /^\/api\/categories\/([^/]+)\/segment$/, params: ["id"] }];
// Headers of a route's answer that are its own, not the ones Next.js adds to every answer.
const ROUTE_OWN = new Set([...PER_RESPONSE, "content-type", "set-cookie", "x-nextjs-cache"]);

/** @type {Map<string, (url: string, headers: [string, string][], params: Record<string, string>) => Promise<Response>>} */
const frontRoutes = (globalThis.__leadmarketFrontRoutes ??= new Map());
/** Per route, the headers Next.js added to the last answer of it that Next.js served. */
const routeHeaders = new Map();

/** @typedef {{ version: string; at: number; headers: Record<string, string | string[]>; body: Buffer; gzip?: Buffer }} Entry */
/** @type {{ pages: Map<string, Entry>; segments: Map<string, Entry>; previews: Map<string, Entry> }} */
const stores = (globalThis.__leadmarketFrontCache ??= {
  pages: new Map(),
  segments: new Map(),
  previews: new Map(),
});

/**
 * A segment page's key: the country, the package, each facet's values sorted without repeats and
 * the email quality, or undefined for a query with anything else (or a parameter given twice) in it. Unknown values
 * are Next.js's to refuse (a 404 is never kept).
 */
function segmentKey(pathname, searchParams) {
  for (const name of new Set(searchParams.keys())) {
    if (FACETS.includes(name)) continue;
    if (!["location", "package", "emailQuality"].includes(name) || searchParams.getAll(name).length !== 1)
      return undefined;
  }
  const location = (searchParams.get("location") ?? DEFAULT_LOCATION).toUpperCase();
  const pkg = searchParams.get("package") ?? DEFAULT_PACKAGE;
  if (!LOCATIONS.has(location) || !PACKAGES.has(pkg)) return undefined;
  const filters = FACETS.map((facet) => {
    const normal = [...new Set(commaList(joinedValues(searchParams.getAll(facet))))].sort();
    return `${facet}=${normal.join(",")}`;
  });
  const quality = searchParams.get("emailQuality") ?? "any";
  return `${pathname}?location=${location}&package=${pkg}&${filters.join("&")}&emailQuality=${quality}`;
}

/** Where a request this cache may answer is kept (and its key), or undefined. */
function placeOf({ pathname, searchParams }) {
  const query = [...searchParams.keys()];
  if (["/", "/api/categories", "/sitemap.xml"].includes(pathname))
    return query.length ? undefined : { store: "pages", key: pathname };
  if (Object.hasOwn(PREVIEW_ROUTES, pathname)) {
    // Its own parameters, each once; their values are Next.js's to check (a 400 is never kept).
    const known = PREVIEW_ROUTES[pathname];
    if (query.some((name) => !known.includes(name) || searchParams.getAll(name).length !== 1))
      return undefined;
    return { store: "previews", key: `${pathname}?${[...searchParams].sort().join("&")}` };
  }
  if (!CATEGORY_PATH.test(pathname)) return undefined;
  if (query.some((name) => FILTERS.includes(name))) {
    const key = segmentKey(pathname, searchParams);
    return key && { store: "segments", key };
  }
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
  return {
    store: "pages",
    key: query.length ? `${pathname}?${[...searchParams].sort().join("&")}` : pathname,
  };
}

function acceptsGzip(request) {
  return /\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""));
}

/**
 * Answers the request from this cache (true), or prepares to keep what Next.js answers (false:
 * the caller hands the request to Next.js).
 */
export async function serveFromFrontCache(request, response) {
  if (request.method !== "GET") return false;
  if (ROUTER_HEADERS.some((name) => request.headers[name] !== undefined)) return false;
  const url = new URL(request.url ?? "/", "http://local");
  const route = FRONT_ROUTES.find(({ path }) => path.test(url.pathname));
  if (route) return serveFrontRoute(request, response, url, route);
  const place = placeOf(url);
  if (!place) return false;
  const version = await currentVersion();
  if (version === undefined) return false;
  const entries = stores[place.store];
  const entry = entries.get(place.key);
  if (entry && entry.version === version && Date.now() - entry.at < MAX_AGE_MS) {
    // Most recently used last: the first to go beyond the limit is the least recently used.
    entries.delete(place.key);
    entries.set(place.key, entry);
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
  keep(request, response, place, version);
  return false;
}

/**
 * Answers with the route's registered handler (true) once Next.js has loaded it and served one
 * answer of it, whose headers this answer gets too; until then (or if the handler throws) notes
 * the headers of Next.js's answer (false).
 */
async function serveFrontRoute(request, response, url, { name, path, params }) {
  const handler = frontRoutes.get(name);
  const headers = routeHeaders.get(name);
  if (handler && headers) {
    try {
      const values = path.exec(url.pathname).slice(1).map(decodeURIComponent);
      const requestHeaders = Object.entries(request.headers).map(([key, value]) => [
        key,
        [value].flat().join(", "),
      ]);
      const answer = await handler(
        new URL(request.url, `http://${request.headers.host ?? "localhost"}`).href,
        requestHeaders,
        Object.fromEntries(params.map((key, i) => [key, values[i]])),
      );
      const body = Buffer.from(await answer.arrayBuffer());
      response.writeHead(answer.status, {
        ...headers,
        ...Object.fromEntries(answer.headers),
        "content-length": body.length,
      });
      response.end(body);
      return true;
    } catch {
      // Next.js answers instead, and reports what failed.
    }
  }
  response.on("finish", () => {
    if (response.statusCode >= 500) return;
    const added = Object.entries(response.getHeaders()).filter(([key]) => !ROUTE_OWN.has(key));
    routeHeaders.set(
      name,
      Object.fromEntries(added.map(([key, value]) => [key, [value].flat().map(String)])),
    );
  });
  return false;
}

/**
 * Whether Next.js's answer is one to keep: a page it serves from its own cache (a 200 marked HIT,
 * or MISS when just rendered), a segment page it rendered whole or a preview page (200, setting no
 * cookie, HTML or JSON as the store holds).
 */
function keepable(response, store) {
  if (response.statusCode !== 200 || response.getHeader("content-encoding")) return false;
  if (store !== "pages")
    return (
      !response.getHeader("set-cookie") &&
      (store === "segments" ? /^text\/html/ : /^application\/json/).test(
        String(response.getHeader("content-type")),
      )
    );
  return ["HIT", "MISS"].includes(String(response.getHeader("x-nextjs-cache") ?? ""));
}

/** Collects Next.js's answer (uncompressed: the request's accept-encoding is dropped) for `place`. */
function keep(request, response, place, version) {
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
    if (!keepable(response, place.store)) return;
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
    const entries = stores[place.store];
    entries.delete(place.key);
    entries.set(place.key, { version, at: Date.now(), headers, body: Buffer.concat(chunks) });
    if (entries.size > MAX_STORE_ENTRIES[place.store]) entries.delete(entries.keys().next().value);
  });
}
