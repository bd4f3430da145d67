import "server-only";
import { NextRequest } from "next/server";

// Route handlers the HTTP server (scripts/server.mjs) may call itself, without Next.js's request
// handling, whose own cost is several times that of a handler answering from memory: the handler
// registers here when Next.js loads its module, and lib/categories/front-cache.mjs calls it for
// plain GET requests to its path, with the headers Next.js gave the route's last answer it served
// (next.config.ts). Everything else about the answer is the handler's own, errors included.

type Handler = (
  request: NextRequest,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response>;

/** How front-cache.mjs calls a route: the request's address, headers and path parameters. */
type FrontRoute = (
  url: string,
  headers: [string, string][],
  params: Record<string, string>,
) => Promise<Response>;

/** The routes, by name; keep the names and their paths in step with front-cache.mjs. */
type Name = "segment";

const store = globalThis as { __leadmarketFrontRoutes?: Map<Name, FrontRoute> };
const routes = (store.__leadmarketFrontRoutes ??= new Map<Name, FrontRoute>());

/** Lets the HTTP server answer `name`'s path with `handler` (the route's exported GET). */
export function answerInFront(name: Name, handler: Handler): void {
  routes.set(name, (url, headers, params) =>
    handler(new NextRequest(url, { headers }), { params: Promise.resolve(params) }),
  );
}
