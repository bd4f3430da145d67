import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { testPaymentsWarning } from "@/lib/production-rules";

const base = { DATABASE_URL: "postgres://localhost/x" };

describe("parseEnv", () => {
  it("reads DNS_SERVERS=off as no resolvers (domain checks off) and the re-check settings", () => {
    expect(parseEnv({ ...base, DNS_SERVERS: "off" }).DNS_SERVERS).toEqual([]);
    expect(parseEnv({ ...base, DNS_SERVERS: "127.0.0.1:5353" }).DNS_SERVERS).toEqual([
      { host: "127.0.0.1", port: 5353 },
    ]);
    expect(parseEnv(base).EMAIL_VERIFY_RATE).toBe(20);
    expect(parseEnv(base).EMAIL_VERIFIER_MONTHLY_LIMIT).toBeUndefined();
    expect(parseEnv({ ...base, EMAIL_VERIFIER_MONTHLY_LIMIT: "5000" }).EMAIL_VERIFIER_MONTHLY_LIMIT).toBe(
      5000,
    );
    expect(() => parseEnv({ ...base, EMAIL_VERIFY_RATE: "-1" })).toThrow(/EMAIL_VERIFY_RATE/);
  });

  it("applies the documented defaults", () => {
    const env = parseEnv({ ...base, NODE_ENV: "development" });
    expect(env.PORT).toBe(3000);
    expect(env.PUBLIC_BASE_URL).toBe("http://localhost:3000");
    expect(env.NOWPAYMENTS_API_URL).toBe("https://api.nowpayments.io/v1");
    expect(env.CUSTOM_REQUEST_LIMIT).toBe(20);
    expect(env.ORDER_CREATE_LIMIT).toBe(10);
    expect(env.PROVIDER_LOOKUP_LIMIT).toBe(60);
    expect(env.paymentsTestMode).toBe(false);
    expect(env.NOWPAYMENTS_IPN_SECRET).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
  });

  it("derives the public URL from PORT and trims a trailing slash", () => {
    expect(parseEnv({ ...base, PORT: "4100" }).PUBLIC_BASE_URL).toBe("http://localhost:4100");
    expect(parseEnv({ ...base, PUBLIC_BASE_URL: "https://leads.example.com/" }).PUBLIC_BASE_URL).toBe(
      "https://leads.example.com",
    );
  });

  it("refuses production without APP_SECRET, with a clear message", () => {
    expect(() => parseEnv({ ...base, NODE_ENV: "production" })).toThrow(/APP_SECRET is required/);
  });

  const production = {
    ...base,
    NODE_ENV: "production",
    APP_SECRET: "a".repeat(32),
    PUBLIC_BASE_URL: "https://leads.example.com",
  };

  it("refuses production without PUBLIC_BASE_URL", () => {
    expect(() => parseEnv({ ...production, PUBLIC_BASE_URL: "" })).toThrow(/PUBLIC_BASE_URL is required/);
    expect(parseEnv(production).PUBLIC_BASE_URL).toBe("https://leads.example.com");
  });

  it("refuses test payments in production unless they are allowed explicitly", () => {
    expect(() => parseEnv({ ...production, PAYMENTS_TEST_MODE: "1" })).toThrow(
      /PAYMENTS_TEST_MODE=1 is refused/,
    );
    expect(
      parseEnv({ ...production, PAYMENTS_TEST_MODE: "1", ALLOW_TEST_PAYMENTS_IN_PRODUCTION: "1" })
        .paymentsTestMode,
    ).toBe(true);
    expect(parseEnv({ ...base, NODE_ENV: "development", PAYMENTS_TEST_MODE: "1" }).paymentsTestMode).toBe(
      true,
    );
  });

  it("has a loud warning for test payments, and none without them", () => {
    expect(testPaymentsWarning(true)).toMatch(/TEST PAYMENTS ARE ON/);
    expect(testPaymentsWarning(false)).toBeNull();
  });

  it("refuses a short APP_SECRET and names the variable", () => {
    expect(() => parseEnv({ ...base, APP_SECRET: "short" })).toThrow(/APP_SECRET/);
  });

  it("treats empty values as unset and validates numbers", () => {
    expect(parseEnv({ ...base, SMTP_URL: "", PAYMENTS_TEST_MODE: "1" }).SMTP_URL).toBeUndefined();
    expect(parseEnv({ ...base, PAYMENTS_TEST_MODE: "1" }).paymentsTestMode).toBe(true);
    expect(() => parseEnv({ ...base, CUSTOM_REQUEST_LIMIT: "-1" })).toThrow(/CUSTOM_REQUEST_LIMIT/);
  });

  it("lets a build read the configuration without a database", () => {
    const config = parseEnv({ NODE_ENV: "production", PORT: "4100" });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PUBLIC_BASE_URL).toBe("http://localhost:4100");
  });
});
