// The public origin for metadata, sitemap and structured data (decisions.md: PUBLIC_BASE_URL,
// default http://localhost:$PORT). Read from process.env directly: lib/env requires a database URL,
// which a build does not have.
export function siteUrl(): string {
  const fallback = `http://localhost:${process.env.PORT || 3000}`;
  return (process.env.PUBLIC_BASE_URL || fallback).replace(/\/+$/, "");
}
