import "server-only";
import { z } from "zod";
import { BusyError } from "@/lib/concurrency";
import { AppError, ClientAbortError } from "@/lib/errors";
import { fieldErrors } from "@/lib/schemas/common";

// What a lost or unreachable database looks like, from pg (socket errors, PostgreSQL's connection
// and shutdown SQLSTATEs), from the pool, and from Prisma (its codes, its adapter's error kinds).
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  // A transaction that could not start (no connection within its wait) or outlived its time limit.
  "P2028",
]);
const UNAVAILABLE_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Can't reach database server|server closed the connection/i;
const RETRY_AFTER_OUTAGE_SECONDS = 5;

/** Whether an error means the database could not be reached (an outage, not a bug). */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const { code, kind, message, cause } = error as {
    code?: unknown;
    kind?: unknown;
    message?: unknown;
    cause?: unknown;
  };
  if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
  if (typeof kind === "string" && UNAVAILABLE_KINDS.has(kind)) return true;
  if (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message)) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

export function errorBody(message: string, errors?: Record<string, string>) {
  return errors ? { success: false as const, message, errors } : { success: false as const, message };
}

/** Turns anything thrown by a handler into the JSON error of docs/product-rules.md. */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof ClientAbortError)
    console.warn("[request] aborted: the client went away before its body arrived");
  if (error instanceof AppError) {
    return Response.json(errorBody(error.message, error.errors), {
      status: error.status,
      headers: error.headers,
    });
  }
  if (error instanceof BusyError) {
    // The connection closes after it: the rest of a refused upload is dropped within the bound of
    // lib/http/early-answer.mjs, never read as the client's next request.
    return Response.json(errorBody(error.message), {
      status: 503,
      headers: { "Retry-After": String(error.retryAfterSeconds), Connection: "close" },
    });
  }
  if (error instanceof z.ZodError) {
    return Response.json(errorBody("Invalid input", fieldErrors(error)), { status: 400 });
  }
  if (isDatabaseUnavailable(error)) {
    console.error(`[db] unavailable: ${(error as Error).message}`);
    return Response.json(errorBody("The service is temporarily unavailable. Please try again shortly."), {
      status: 503,
      headers: { "Retry-After": String(RETRY_AFTER_OUTAGE_SECONDS) },
    });
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "P2025") return Response.json(errorBody("Not found"), { status: 404 });
  if (code === "P2002") {
    // Expected races end here; an unexpected one is a bug worth seeing in the log.
    console.warn("Unique constraint conflict:", (error as { meta?: unknown }).meta ?? error);
    return Response.json(errorBody("Already exists"), { status: 409 });
  }
  console.error("Unhandled error in API route:", error);
  return Response.json(errorBody("Internal server error"), { status: 500 });
}
