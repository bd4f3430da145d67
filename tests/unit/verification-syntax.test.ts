import { describe, expect, it } from "vitest";
import { parseAddress } from "@/lib/verification/syntax";

describe("parseAddress", () => {
  it("accepts the practical RFC 5321 forms and normalises the domain", () => {
    expect(parseAddress("Jane.Doe@Example.COM")).toEqual({ local: "Jane.Doe", domain: "example.com" });
    expect(parseAddress("  o'brien+leads@mail.example.co.uk ")).toEqual({
      local: "o'brien+leads",
      domain: "mail.example.co.uk",
    });
    expect(parseAddress("a!#$%&'*+-/=?^_`{|}~z@x-y.example")).not.toBeNull();
  });

  it("takes internationalised domains through punycode", () => {
    expect(parseAddress("info@bücher.de")).toEqual({ local: "info", domain: "xn--bcher-kva.de" });
    expect(parseAddress("kontakt@MÜNCHEN.example")?.domain).toBe("xn--mnchen-3ya.example");
    expect(parseAddress("a@xn--bcher-kva.de")?.domain).toBe("xn--bcher-kva.de");
    // A label that is not valid punycode.
    expect(parseAddress("a@xn--zz.com")).toBeNull();
  });

  it.each([
    "",
    "plain",
    "@example.com",
    "a@",
    "a@@example.com",
    "a@b@example.com",
    ".a@example.com",
    "a.@example.com",
    "a..b@example.com",
    "a b@example.com",
    '"quoted"@example.com',
    "a@localhost",
    "a@example",
    "a@example..com",
    "a@-example.com",
    "a@example-.com",
    "a@exa_mple.com",
    "a@ex%61mple.com",
    "a@example.com.",
    "a@[192.0.2.1]",
    "a@192.0.2.1",
    "ünïcode@example.com",
  ])("refuses %j", (address) => {
    expect(parseAddress(address)).toBeNull();
  });

  it("holds the length limits: local part 64, labels 63, domain 253, address 254", () => {
    const local64 = "a".repeat(64);
    expect(parseAddress(`${local64}@example.com`)).not.toBeNull();
    expect(parseAddress(`a${local64}@example.com`)).toBeNull();
    expect(parseAddress(`a@${"b".repeat(63)}.com`)).not.toBeNull();
    expect(parseAddress(`a@${"b".repeat(64)}.com`)).toBeNull();
    // 4 labels of 61 + ".com" = 251 octets of domain: the address is 253.
    const domain251 = `${Array(4).fill("c".repeat(61)).join(".")}.com`;
    expect(parseAddress(`a@${domain251}`)).not.toBeNull();
    expect(parseAddress(`abc@${domain251}`)).toBeNull();
  });

  // A guard against a backtracking matcher: these would hang one; the per-test timeout is far
  // above what a linear check needs, so it does not measure speed.
  it("refuses megabyte inputs built to defeat pattern matchers", { timeout: 5000 }, () => {
    const megabyte = 1 << 20;
    const inputs = [
      "a".repeat(megabyte),
      `${"a.".repeat(megabyte / 2)}@example.com`,
      `${"a".repeat(megabyte)}@${"b.".repeat(megabyte / 2)}com`,
      "@".repeat(megabyte),
      `a@${"-".repeat(megabyte)}`,
      `${" ".repeat(megabyte)}a@example.com${" ".repeat(megabyte)}x`,
      `a@${"ü".repeat(megabyte)}.com`,
    ];
    for (const input of inputs) expect(parseAddress(input)).toBeNull();
  });
});
