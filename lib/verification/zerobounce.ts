import "server-only";
import { z } from "zod";

// ZeroBounce API v2: GET /validate and GET /getcredits on the API host, POST /validatebatch (at
// most 200 addresses) on the bulk host. An error, a timeout or an answer that does not parse
// gives no verdict: it is thrown as a ProviderError for the caller to show the admin.

export const ZEROBOUNCE_API_URL = "https://api.zerobounce.net/v2";
export const ZEROBOUNCE_BULK_API_URL = "https://bulkapi.zerobounce.net/v2";
export const BATCH_LIMIT = 200;

// The provider answers a single check within 30 s and a batch within 70 s (their documentation);
// past these bounds the call is abandoned.
const VALIDATE_TIMEOUT_MS = 40_000;
const BATCH_TIMEOUT_MS = 80_000;
const CREDITS_TIMEOUT_MS = 10_000;
// A batch answer of 200 rows is about 150 KB.
const MAX_ANSWER_BYTES = 2_000_000;

export type ProviderStatus = "valid" | "accept_all" | "unknown" | "invalid";
export type ProviderVerdict = { status: ProviderStatus; reason: string | null };

/**
 * unreachable: no connection; timeout: no answer in time; rejected: an HTTP error or the
 * provider's own error answer (a bad key, exhausted credits, a rate limit), its text kept;
 * bad_answer: an answer that does not parse.
 */
export type ProviderErrorKind = "unreachable" | "timeout" | "rejected" | "bad_answer";

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

export type ZeroBounceOptions = {
  apiKey: string;
  /** Replaces both documented hosts (EMAIL_VERIFIER_API_URL), for a stand-in. */
  apiUrl?: string;
  /** Replaces every call's own time bound. */
  timeoutMs?: number;
};

const STATUSES: Record<string, ProviderStatus> = {
  valid: "valid",
  "catch-all": "accept_all",
  unknown: "unknown",
  invalid: "invalid",
  spamtrap: "invalid",
  abuse: "invalid",
  do_not_mail: "invalid",
};

const resultSchema = z.object({
  address: z.string(),
  status: z.string(),
  sub_status: z.string().nullish(),
});
type Result = z.infer<typeof resultSchema>;

const errorSchema = z.object({ error: z.string() });
const batchSchema = z.object({
  email_batch: z.array(resultSchema),
  errors: z.array(z.object({ error: z.string(), email_address: z.string().nullish() })).nullish(),
});
const creditsSchema = z.object({ Credits: z.union([z.string(), z.number()]) });

/** Our verdict for one provider result, or null for a status we do not know. */
function verdictOf(result: Result): ProviderVerdict | null {
  const status = STATUSES[result.status];
  if (!status) return null;
  const detail = result.sub_status || (status === "invalid" ? result.status : "");
  return { status, reason: detail ? `provider:${detail}` : null };
}

function badAnswer(what: string): ProviderError {
  // Logged once per answer, never with the answer itself (it holds addresses).
  console.error(`[verification] ZeroBounce ${what} did not parse`);
  return new ProviderError("bad_answer", `The verification provider's ${what} did not parse`);
}

export class ZeroBounce {
  private readonly apiUrl: string;
  private readonly bulkApiUrl: string;

  constructor(private readonly options: ZeroBounceOptions) {
    this.apiUrl = (options.apiUrl ?? ZEROBOUNCE_API_URL).replace(/(?<!\/)\/+$/, "");
    this.bulkApiUrl = (options.apiUrl ?? ZEROBOUNCE_BULK_API_URL).replace(/(?<!\/)\/+$/, "");
  }

  /** One address (GET /validate). */
  async validate(email: string, ipAddress = ""): Promise<ProviderVerdict> {
    const query = new URLSearchParams({ api_key: this.options.apiKey, email, ip_address: ipAddress });
    const body = await this.call(`${this.apiUrl}/validate?${query}`, { method: "GET" }, VALIDATE_TIMEOUT_MS);
    const rejected = errorSchema.safeParse(body);
    if (rejected.success) throw new ProviderError("rejected", rejected.data.error);
    const parsed = resultSchema.safeParse(body);
    const verdict = parsed.success ? verdictOf(parsed.data) : null;
    if (!verdict) throw badAnswer("validate answer");
    return verdict;
  }

  /**
   * Up to 200 addresses (POST /validatebatch): a verdict per address (lower-cased) the provider
   * judged. Addresses it reports an error for, or answers with a status we do not know, are absent.
   */
  async validateBatch(emails: readonly string[]): Promise<Map<string, ProviderVerdict>> {
    if (emails.length > BATCH_LIMIT) throw new RangeError(`at most ${BATCH_LIMIT} addresses a batch`);
    const request = {
      api_key: this.options.apiKey,
      email_batch: emails.map((email) => ({ email_address: email, ip_address: null })),
    };
    const body = await this.call(
      `${this.bulkApiUrl}/validatebatch`,
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request) },
      BATCH_TIMEOUT_MS,
    );
    const rejected = errorSchema.safeParse(body);
    if (rejected.success) throw new ProviderError("rejected", rejected.data.error);
    const parsed = batchSchema.safeParse(body);
    if (!parsed.success) throw badAnswer("batch answer");
    const { email_batch: results, errors } = parsed.data;
    // A key or credit problem comes back as one error for "all" and no results.
    const whole = errors?.find((error) => error.email_address === "all" || !error.email_address);
    if (whole && results.length === 0) throw new ProviderError("rejected", whole.error);
    const verdicts = new Map<string, ProviderVerdict>();
    let unknown = 0;
    for (const result of results) {
      const verdict = verdictOf(result);
      if (verdict) verdicts.set(result.address.toLowerCase(), verdict);
      else unknown += 1;
    }
    if (unknown > 0) badAnswer(`batch answer's status for ${unknown} of ${results.length} addresses`);
    return verdicts;
  }

  /** The credits left (GET /getcredits); the provider answers -1 for a key it does not know. */
  async credits(): Promise<number> {
    const query = new URLSearchParams({ api_key: this.options.apiKey });
    const body = await this.call(`${this.apiUrl}/getcredits?${query}`, { method: "GET" }, CREDITS_TIMEOUT_MS);
    const parsed = creditsSchema.safeParse(body);
    const credits = parsed.success ? Number(parsed.data.Credits) : NaN;
    if (!Number.isInteger(credits)) throw badAnswer("credits answer");
    if (credits < 0)
      throw new ProviderError("rejected", "The verification provider does not know this API key");
    return credits;
  }

  /** The JSON an HTTP call answers, within its time and size bounds. */
  private async call(url: string, init: RequestInit, timeoutMs: number): Promise<unknown> {
    const signal = AbortSignal.timeout(this.options.timeoutMs ?? timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { ...init, signal });
      text = await readBounded(response);
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      const name = (error as Error).name;
      if (name === "TimeoutError" || name === "AbortError") {
        throw new ProviderError("timeout", "The verification provider did not answer in time");
      }
      throw new ProviderError("unreachable", "The verification provider could not be reached");
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const message = errorSchema.safeParse(body);
      throw new ProviderError(
        "rejected",
        message.success ? message.data.error : `The verification provider answered HTTP ${response.status}`,
      );
    }
    if (body === undefined) throw badAnswer("answer");
    return body;
  }
}

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw badAnswer("answer (too large)");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
