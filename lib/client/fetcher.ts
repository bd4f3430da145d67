// The product's default fetch: credentials included, JSON parsed, a non-OK answer becomes
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
    const message = this.parsedBody()?.message;
    return typeof message === "string" ? message : undefined;
  }

  /**
   * What the server said was wrong, as precisely as it said it: the per-field reasons when it gave
   * them (e.g. "photo.png: Only PDF, Word, CSV or Excel files are accepted"), else its message.
   */
  get serverReason(): string | undefined {
    const reasons = Object.values(this.errors ?? {}).filter((value) => typeof value === "string");
    return reasons.length ? reasons.join("; ") : this.serverMessage;
  }

  /** A refusal of this request (4xx), as opposed to a server failure. */
  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }

  private parsedBody(): { message?: unknown; errors?: unknown } | undefined {
    try {
      const parsed: unknown = JSON.parse(this.body);
      return parsed && typeof parsed === "object" ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  /** The server's per-field messages (`errors`) when the body is our JSON error shape. */
  get errors(): Record<string, string> | undefined {
    const errors = this.parsedBody()?.errors;
    return errors && typeof errors === "object" ? (errors as Record<string, string>) : undefined;
  }
}

export async function apiFetch<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { credentials: "include", ...init });
  if (!response.ok) throw new HttpError(response.status, (await response.text()) || response.statusText);
  return (await response.json()) as T;
}
