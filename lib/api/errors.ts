import "server-only";
import { z } from "zod";
import { BusyError } from "@/lib/concurrency";

/** A failure the caller should hear about, with the status decisions.md assigns to it. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: Record<string, string>) =>
  new AppError(400, message, errors);
export const unauthorized = (message = "Authentication required") => new AppError(401, message);
export const notFound = (message = "Not found") => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooLarge = (message: string, errors?: Record<string, string>) =>
  new AppError(413, message, errors);

export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    errors[key] ??= issue.message;
  }
  return errors;
}

export function errorBody(message: string, errors?: Record<string, string>) {
  return errors ? { success: false as const, message, errors } : { success: false as const, message };
}

/** Turns anything thrown by a handler into the JSON error of decisions.md section 2. */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof AppError) {
    return Response.json(errorBody(error.message, error.errors), {
      status: error.status,
      headers: error.headers,
    });
  }
  if (error instanceof BusyError) {
    return Response.json(errorBody(error.message), {
      status: 503,
      headers: { "Retry-After": String(error.retryAfterSeconds) },
    });
  }
  if (error instanceof z.ZodError) {
    return Response.json(errorBody("Invalid input", fieldErrors(error)), { status: 400 });
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
