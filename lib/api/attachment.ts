import "server-only";
import { create as contentDisposition } from "content-disposition";
import type { OutgoingFile } from "@/lib/content-types";

// Every file the app sends (lead downloads, admin exports, request attachments) goes out with
// these headers: never cached, never sniffed into another type, always saved rather than shown.

/**
 * Headers of a file download. The name loses any folder part; `filename*` carries it in UTF-8 as
 * RFC 6266 and 5987 require, `filename` an ASCII look-alike for old clients ("résumé" → "resume").
 */
export function attachmentHeaders(fileName: string, contentType: string): Record<string, string> {
  const name = fileName.split(/[\\/]/).pop() || "download";
  const fallback = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^\x20-\x7e]|["\\%]/g, "_");
  return {
    "content-type": contentType,
    "content-disposition": contentDisposition(name, { fallback }),
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
  };
}

/**
 * A file as its download. Even if opened directly, it gets no scripting and no origin (request
 * attachments are visitors' files); stored bytes go out with their length.
 */
export function fileResponse(file: OutgoingFile): Response {
  const headers = {
    ...attachmentHeaders(file.fileName, file.contentType),
    "content-security-policy": "sandbox; default-src 'none'",
    ...(file.body instanceof Uint8Array ? { "content-length": String(file.body.length) } : {}),
  };
  return new Response(file.body, { headers });
}
