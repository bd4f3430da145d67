// A ZeroBounce API v2 stand-in on loopback, following their documentation: GET /v2/validate
// (api_key, email, ip_address), POST /v2/validatebatch (JSON: api_key, email_batch of at most 200
// { email_address, ip_address }) and GET /v2/getcredits (api_key). One host serves what the
// provider splits between its API and bulk hosts (EMAIL_VERIFIER_API_URL points at both).
// A bad key or no credits is the provider's own error answer (HTTP 200); an unknown result costs
// no credit. Independent of the app's code on purpose.
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody, startStandin } from "./standin";

export type StandinResult = { status: string; sub_status: string };

export type ZeroBounceStandin = {
  /** The base both hosts share: `http://127.0.0.1:port/v2`. */
  url: string;
  apiKey: string;
  /** What the provider says of an address (lower-case); an address not listed is valid. */
  results: Map<string, StandinResult>;
  /** Credits left; each validated address but an unknown one costs one. */
  credits: number;
  /** How long every answer waits. */
  delayMs: number;
  /** The next `count` calls fail: an HTTP status, an answer that is not JSON, or no answer at all. */
  failNext: (mode: number | "garbage" | "hang", count?: number) => void;
  /** Calls received, as `path:addresses`. */
  calls: string[];
  close: () => Promise<void>;
};

const NO_CREDITS = "Invalid API key or your account ran out of credits";

function row(address: string, result: StandinResult): Record<string, unknown> {
  const [account, domain] = address.split("@");
  return {
    address,
    status: result.status,
    sub_status: result.sub_status,
    free_email: false,
    did_you_mean: null,
    account,
    domain,
    domain_age_days: "9692",
    smtp_provider: "example",
    mx_found: "true",
    mx_record: `mx.${domain}`,
    firstname: null,
    lastname: null,
    gender: null,
    country: null,
    region: null,
    city: null,
    zipcode: null,
    processed_at: new Date().toISOString().replace("T", " ").slice(0, 23),
  };
}

export async function startZeroBounceStandin(apiKey = "zb-test-key"): Promise<ZeroBounceStandin> {
  const failures: (number | "garbage" | "hang")[] = [];
  const state = {
    results: new Map<string, StandinResult>(),
    credits: 1_000_000,
    delayMs: 0,
    calls: [] as string[],
  };

  function judge(address: string): StandinResult {
    const result = state.results.get(address.toLowerCase()) ?? { status: "valid", sub_status: "" };
    if (result.status !== "unknown") state.credits -= 1;
    return result;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://standin");
    const body = request.method === "POST" ? await readBody(request) : "";
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    const failure = failures.shift();
    if (failure === "hang") return;
    if (failure === "garbage") {
      response.setHeader("content-type", "text/html");
      response.end("<html>Service Unavailable</html>");
      return;
    }
    const json = (status: number, value: unknown) => {
      response.statusCode = status;
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(value));
    };
    if (typeof failure === "number") return json(failure, { error: `Stand-in failure ${failure}` });

    if (request.method === "GET" && url.pathname === "/v2/getcredits") {
      state.calls.push("getcredits:0");
      const known = url.searchParams.get("api_key") === apiKey;
      return json(200, { Credits: String(known ? Math.max(0, state.credits) : -1) });
    }
    if (request.method === "GET" && url.pathname === "/v2/validate") {
      const email = url.searchParams.get("email");
      state.calls.push("validate:1");
      // The documented parameters are all required (ip_address may be blank).
      if (email === null || !url.searchParams.has("ip_address"))
        return json(400, { error: "Missing parameter" });
      if (url.searchParams.get("api_key") !== apiKey || state.credits <= 0)
        return json(200, { error: NO_CREDITS });
      return json(200, row(email, judge(email)));
    }
    if (request.method === "POST" && url.pathname === "/v2/validatebatch") {
      let parsed: { api_key?: unknown; email_batch?: { email_address?: unknown }[] };
      try {
        parsed = JSON.parse(body);
      } catch {
        return json(400, { error: "Invalid JSON" });
      }
      const batch = Array.isArray(parsed.email_batch) ? parsed.email_batch : [];
      state.calls.push(`validatebatch:${batch.length}`);
      if (batch.length === 0 || batch.length > 200)
        return json(400, { error: "email_batch must hold 1 to 200 emails" });
      if (parsed.api_key !== apiKey || state.credits <= 0) {
        return json(200, { email_batch: [], errors: [{ error: NO_CREDITS, email_address: "all" }] });
      }
      const results: Record<string, unknown>[] = [];
      const errors: { error: string; email_address: string }[] = [];
      for (const item of batch) {
        const address = typeof item.email_address === "string" ? item.email_address : "";
        if (!address.includes("@")) errors.push({ error: "Invalid email address", email_address: address });
        else results.push(row(address, judge(address)));
      }
      return json(200, { email_batch: results, errors });
    }
    json(404, { error: "Not found" });
  }

  const standin = await startStandin(handle);
  return {
    url: `${standin.url}/v2`,
    apiKey,
    results: state.results,
    get credits() {
      return state.credits;
    },
    set credits(value: number) {
      state.credits = value;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(value: number) {
      state.delayMs = value;
    },
    failNext: (mode, count = 1) => {
      for (let i = 0; i < count; i++) failures.push(mode);
    },
    calls: state.calls,
    close: standin.close,
  };
}
