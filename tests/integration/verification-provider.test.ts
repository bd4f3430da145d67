import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { freePort } from "@/scripts/free-port";
import { ProviderError, ZeroBounce } from "@/lib/verification/zerobounce";
import { startZeroBounceStandin, type ZeroBounceStandin } from "../support/zerobounce-standin";

// The ZeroBounce v2 client against a loopback stand-in that follows their documented API.

let standin: ZeroBounceStandin;
let provider: ZeroBounce;

beforeAll(async () => {
  standin = await startZeroBounceStandin();
  provider = new ZeroBounce({ apiKey: standin.apiKey, apiUrl: standin.url });
});

afterEach(() => {
  standin.results.clear();
  standin.credits = 1_000_000;
  standin.delayMs = 0;
  vi.restoreAllMocks();
});

afterAll(() => standin.close());

async function providerError(call: Promise<unknown>): Promise<ProviderError> {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe("ZeroBounce client", () => {
  it.each([
    ["valid", "", { status: "valid", reason: null }],
    ["valid", "alias_address", { status: "valid", reason: "provider:alias_address" }],
    ["catch-all", "", { status: "accept_all", reason: null }],
    ["unknown", "greylisted", { status: "unknown", reason: "provider:greylisted" }],
    ["invalid", "mailbox_not_found", { status: "invalid", reason: "provider:mailbox_not_found" }],
    ["spamtrap", "", { status: "invalid", reason: "provider:spamtrap" }],
    ["abuse", "", { status: "invalid", reason: "provider:abuse" }],
    ["do_not_mail", "disposable", { status: "invalid", reason: "provider:disposable" }],
    ["do_not_mail", "role_based", { status: "invalid", reason: "provider:role_based" }],
  ])("maps %s/%s through validate and validatebatch", async (status, subStatus, expected) => {
    standin.results.set("someone@example.com", { status, sub_status: subStatus });
    expect(await provider.validate("someone@example.com")).toEqual(expected);
    const batch = await provider.validateBatch(["someone@example.com"]);
    expect(batch.get("someone@example.com")).toEqual(expected);
  });

  it("sends batches of at most 200 addresses", async () => {
    const emails = (count: number) => Array.from({ length: count }, (_, i) => `person${i}@example.com`);
    expect((await provider.validateBatch(emails(200))).size).toBe(200);
    await expect(provider.validateBatch(emails(201))).rejects.toThrow(RangeError);
    expect(standin.calls.at(-1)).toBe("validatebatch:200");
  });

  it("reads the credits left, and refuses an unknown key", async () => {
    standin.credits = 1234;
    expect(await provider.credits()).toBe(1234);
    const stranger = new ZeroBounce({ apiKey: "not-the-key", apiUrl: standin.url });
    expect((await providerError(stranger.credits())).kind).toBe("rejected");
  });

  it("reports a bad key and exhausted credits as the provider's own error, on every call", async () => {
    const stranger = new ZeroBounce({ apiKey: "not-the-key", apiUrl: standin.url });
    const refused = await providerError(stranger.validate("a@example.com"));
    expect(refused.kind).toBe("rejected");
    expect(refused.message).toMatch(/ran out of credits/);
    expect((await providerError(stranger.validateBatch(["a@example.com"]))).kind).toBe("rejected");

    standin.credits = 0;
    expect((await providerError(provider.validate("a@example.com"))).message).toMatch(/ran out of credits/);
    expect((await providerError(provider.validateBatch(["a@example.com"]))).kind).toBe("rejected");
    expect(await provider.credits()).toBe(0);
  });

  it("reports an HTTP error with the provider's message", async () => {
    standin.failNext(500);
    const error = await providerError(provider.validateBatch(["a@example.com"]));
    expect(error.kind).toBe("rejected");
    expect(error.message).toBe("Stand-in failure 500");
  });

  it("logs an answer that does not parse once, and gives no verdict", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    standin.failNext("garbage");
    expect((await providerError(provider.validateBatch(["a@example.com", "b@example.com"]))).kind).toBe(
      "bad_answer",
    );
    expect(log).toHaveBeenCalledTimes(1);
    expect(String(log.mock.calls[0][0])).not.toContain("example.com");
  });

  it("skips a status it does not know, logging it once per answer", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    standin.results.set("new@example.com", { status: "brand_new_status", sub_status: "" });
    standin.results.set("other@example.com", { status: "brand_new_status", sub_status: "" });
    const verdicts = await provider.validateBatch(["new@example.com", "other@example.com", "ok@example.com"]);
    expect([...verdicts.keys()]).toEqual(["ok@example.com"]);
    expect(log).toHaveBeenCalledTimes(1);
    expect((await providerError(provider.validate("new@example.com"))).kind).toBe("bad_answer");
  });

  it("gives up on a provider that does not answer in time", async () => {
    const impatient = new ZeroBounce({ apiKey: standin.apiKey, apiUrl: standin.url, timeoutMs: 300 });
    standin.failNext("hang");
    expect((await providerError(impatient.validateBatch(["a@example.com"]))).kind).toBe("timeout");
    standin.delayMs = 1000;
    expect((await providerError(impatient.validate("a@example.com"))).kind).toBe("timeout");
  });

  it("reports a provider it cannot reach", async () => {
    const nowhere = new ZeroBounce({ apiKey: "k", apiUrl: `http://127.0.0.1:${await freePort()}/v2` });
    expect((await providerError(nowhere.credits())).kind).toBe("unreachable");
  });

  it("calls the documented hosts unless a URL replaces both", async () => {
    // Only the address is looked at: the outside is not reachable from the tests.
    const fetch = vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("fetch failed"));
    const documented = new ZeroBounce({ apiKey: "k" });
    await providerError(documented.validate("a@example.com"));
    await providerError(documented.validateBatch(["a@example.com"]));
    await providerError(documented.credits());
    const urls = fetch.mock.calls.map(([url]) => String(url).split("?")[0]);
    expect(urls).toEqual([
      "https://api.zerobounce.net/v2/validate",
      "https://bulkapi.zerobounce.net/v2/validatebatch",
      "https://api.zerobounce.net/v2/getcredits",
    ]);
  });
});
