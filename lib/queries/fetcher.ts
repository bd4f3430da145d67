// The spec's default fetch: credentials included, JSON parsed, a non-OK answer becomes
// an Error "{status}: {text}". Admin calls add the bearer token when one is stored.
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`${status}: ${body}`);
  }

  /** The server's `message` field when the body is our JSON error shape. */
  get serverMessage(): string | undefined {
    try {
      const parsed = JSON.parse(this.body) as { message?: unknown };
      return typeof parsed.message === "string" ? parsed.message : undefined;
    } catch {
      return undefined;
    }
  }

  /** The server's per-field messages (`errors`) when the body is our JSON error shape. */
  get errors(): Record<string, string> | undefined {
    try {
      const parsed = JSON.parse(this.body) as { errors?: unknown };
      return parsed.errors && typeof parsed.errors === "object"
        ? (parsed.errors as Record<string, string>)
        : undefined;
    } catch {
      return undefined;
    }
  }
}

export async function apiFetch<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { credentials: "include", ...init });
  if (!response.ok) throw new HttpError(response.status, (await response.text()) || response.statusText);
  return (await response.json()) as T;
}
