import "server-only";
import { badRequest, ClientAbortError, tooLarge } from "@/lib/errors";

// Request bodies are read with a ceiling: Next.js puts no size limit on route handlers, and an
// unauthenticated route (sign-in, a purchase, a custom request) must not buffer whatever arrives.
const MAX_JSON_BYTES = 64 * 1024;

/** The declared Content-Length, or null when absent or not a number. */
export function declaredLength(request: Request): number | null {
  const header = request.headers.get("content-length");
  if (header === null) return null;
  const length = Number(header);
  return Number.isFinite(length) && length >= 0 ? length : null;
}

/** The body's media type, lower-cased, without parameters ("" when none). */
export function mediaType(request: Request): string {
  return (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * Reads a body as text, refusing it with 413 once it passes `maxBytes` (declared or streamed):
 * an oversized body is never read to its end. Reading stops without cancelling the request's
 * stream (see lib/api/upload.ts); the server drops the rest with the connection.
 */
export async function readBoundedText(request: Request, maxBytes = MAX_JSON_BYTES): Promise<string> {
  if ((declaredLength(request) ?? 0) > maxBytes) throw tooLarge("The request body is too large");
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read().catch(() => {
        throw new ClientAbortError();
      });
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw tooLarge("The request body is too large");
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Reads a JSON body ({} when empty), refusing it with 413 once it passes the limit (declared or streamed). */
export async function readJsonBody(request: Request, maxBytes?: number): Promise<unknown> {
  const text = await readBoundedText(request, maxBytes);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("Request body must be valid JSON");
  }
}
