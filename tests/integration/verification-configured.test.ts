import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailDomainChecker, zeroBounce } from "@/lib/verification/configured";
import { startDnsServer, type LoopbackDnsServer } from "../support/dns-server";
import { startZeroBounceStandin, type ZeroBounceStandin } from "../support/zerobounce-standin";

// The checker and the provider as the environment configures them (DNS_SERVERS,
// EMAIL_VERIFIER_API_URL, EMAIL_VERIFIER_API_KEY), read once by lib/env.ts.

let dns: LoopbackDnsServer;
let standin: ZeroBounceStandin;

beforeAll(async () => {
  dns = await startDnsServer({ zone: { "acme.test": { mx: [{ exchange: "mx.acme.test", priority: 1 }] } } });
  standin = await startZeroBounceStandin();
  process.env.DNS_SERVERS = dns.address;
  process.env.EMAIL_VERIFIER_API_URL = standin.url;
  process.env.EMAIL_VERIFIER_API_KEY = standin.apiKey;
});

afterAll(async () => {
  await dns.close();
  await standin.close();
});

describe("configured verification", () => {
  it("asks the resolvers of DNS_SERVERS, through one shared checker", async () => {
    expect(mailDomainChecker()).toBe(mailDomainChecker());
    expect((await mailDomainChecker().check(["acme.test"])).get("acme.test")).toBe("accepts_mail");
    expect(dns.queries).toContain("acme.test MX");
  });

  it("calls the provider at EMAIL_VERIFIER_API_URL with the stored key, else the environment's", async () => {
    standin.credits = 77;
    expect(await zeroBounce()?.credits()).toBe(77);
    expect(await zeroBounce(null)?.credits()).toBe(77);
    await expect(zeroBounce("a-stored-key")?.credits()).rejects.toThrow(/does not know this API key/);
  });
});
