import type { Metadata } from "next";
import { ApiReference } from "@/components/docs/api-reference";
import { pageMetadata } from "@/components/site/metadata";
import { openApiDocument } from "@/lib/api/openapi";

// Per request, like the legal pages: the canonical address and the footer's year come from the
// running server. The document itself is built once per process.
export const dynamic = "force-dynamic";

export const metadata: Metadata = pageMetadata({
  title: "API Documentation",
  description:
    "The LeadMarket API: categories, segment counts, orders, payments, downloads, replacement claims, exclusion lists and privacy requests, with examples, errors and rate limits.",
  path: "/docs/api",
});

export default function ApiDocumentationPage() {
  return <ApiReference document={openApiDocument()} />;
}
