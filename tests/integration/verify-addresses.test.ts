import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MailDomainChecker } from "@/lib/verification/mail-domain";
import { verifyAddresses } from "@/lib/verification/verify-addresses";
import { ZeroBounce } from "@/lib/verification/zerobounce";
import { startDnsServer, type LoopbackDnsServer } from "../support/dns-server";
import { startZeroBounceStandin, type ZeroBounceStandin } from "../support/zerobounce-standin";

// A batch through every check: syntax, lists, the loopback DNS server and the provider stand-in.

let dns: LoopbackDnsServer;
let standin: ZeroBounceStandin;

const mx = [{ exchange: "mx.mail.test", priority: 10 }];

beforeAll(async () => {
  dns = await startDnsServer({
    zone: {
      "acme.test": { mx },
      "xn--bcher-kva.test": { mx },
      "gmail.com": { mx },
      "null-mx.test": { mx: [{ exchange: "", priority: 0 }] },
      "broken.test": { rcode: "SERVFAIL" },
    },
  });
  standin = await startZeroBounceStandin();
});

afterEach(() => {
  standin.results.clear();
  standin.credits = 1_000_000;
  standin.calls.length = 0;
});

afterAll(async () => {
  await dns.close();
  await standin.close();
});

const domains = () =>
  new MailDomainChecker({ servers: [{ host: dns.host, port: dns.port }], queryTimeoutMs: 300 });
const provider = () => new ZeroBounce({ apiKey: standin.apiKey, apiUrl: standin.url });

const addresses = [
  "jane@acme.test",
  "not an address",
  "someone@mailinator.com",
  "bob@gone.test",
  "bob@null-mx.test",
  "carol@broken.test",
  "info@bücher.test",
  "pat.smith@gmail.com",
];

describe("verifyAddresses", () => {
  it("without a provider finds only invalid addresses and calls none valid", async () => {
    const { checks, providerError } = await verifyAddresses(addresses, { domains: domains() });
    expect(providerError).toBeNull();
    expect(checks).toEqual([
      { status: null, reason: null, roleAccount: false, freeMail: false },
      { status: "invalid", reason: "syntax", roleAccount: false, freeMail: false },
      { status: "invalid", reason: "disposable", roleAccount: false, freeMail: true },
      { status: "invalid", reason: "no_mail_domain", roleAccount: false, freeMail: false },
      { status: "invalid", reason: "null_mx", roleAccount: false, freeMail: false },
      { status: null, reason: null, roleAccount: false, freeMail: false },
      { status: null, reason: null, roleAccount: true, freeMail: false },
      { status: null, reason: null, roleAccount: false, freeMail: true },
    ]);
    // The disposable domain is refused from the list, without a lookup; the IDN is asked in punycode.
    expect(dns.queries.some((query) => query.startsWith("mailinator.com"))).toBe(false);
    expect(dns.queries).toContain("xn--bcher-kva.test MX");
  });

  it("asks the provider about the addresses still standing, and takes its verdicts", async () => {
    standin.results.set("jane@acme.test", { status: "catch-all", sub_status: "" });
    standin.results.set("carol@broken.test", { status: "invalid", sub_status: "mailbox_not_found" });
    const { checks, providerError } = await verifyAddresses(addresses, {
      domains: domains(),
      provider: provider(),
    });
    expect(providerError).toBeNull();
    expect(checks.map(({ status, reason }) => [status, reason])).toEqual([
      ["accept_all", null],
      ["invalid", "syntax"],
      ["invalid", "disposable"],
      ["invalid", "no_mail_domain"],
      ["invalid", "null_mx"],
      ["invalid", "provider:mailbox_not_found"],
      ["valid", null],
      ["valid", null],
    ]);
    // Four addresses stood; the stand-in saw the IDN in punycode.
    expect(standin.calls).toEqual(["validatebatch:4"]);
  });

  it("asks about each address once, in batches of at most 200", async () => {
    const many = Array.from({ length: 450 }, (_, i) => `person${i}@acme.test`);
    const { checks } = await verifyAddresses([...many, "PERSON0@acme.test"], {
      domains: domains(),
      provider: provider(),
    });
    expect(standin.calls).toEqual(["validatebatch:200", "validatebatch:200", "validatebatch:50"]);
    expect(checks.every((check) => check.status === "valid")).toBe(true);
  });

  it("keeps statuses when the provider fails, and says why", async () => {
    standin.credits = 0;
    const { checks, providerError } = await verifyAddresses(["jane@acme.test", "x@gone.test"], {
      domains: domains(),
      provider: provider(),
    });
    expect(providerError?.kind).toBe("rejected");
    expect(providerError?.message).toMatch(/credits/);
    expect(checks.map((check) => check.status)).toEqual([null, "invalid"]);
  });
});
