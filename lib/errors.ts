/**
 * A failure the caller should hear about, with its HTTP status (docs/product-rules.md). Domain code
 * throws these; lib/api/errors.ts turns them into responses.
 */
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

/** 429 with the seconds to wait in Retry-After. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, message, undefined, { "Retry-After": String(retryAfterSeconds) });

/**
 * 429 from a window limit (lib/limits/throttle.ts) whose window is spent: it is refused the same way
 * until Retry-After, when the window frees one.
 */
export class LimitReachedError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, undefined, { "Retry-After": String(retryAfterSeconds) });
  }
}

/** A wait for people: "1 minute", "5 minutes" (rounded up). */
export function minutesText(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** A file (or an upload) over its size limit: 413. */
export class FileTooLargeError extends AppError {
  constructor(message: string, errors?: Record<string, string>) {
    super(413, message, errors);
  }
}

/** A body whose client went away before it arrived: nobody reads the answer, but the log says so. */
export class ClientAbortError extends AppError {
  constructor() {
    super(400, "The request was interrupted before its body arrived");
  }
}

/** An upload that went silent or outlived its deadline: 408, and its slot is released. */
export class UploadTimeoutError extends AppError {
  constructor(message: string) {
    super(408, message);
  }
}
