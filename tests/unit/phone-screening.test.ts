import { describe, expect, it } from "vitest";
import { phoneScreeningText } from "@/components/category/freshness";
import { checkPhone, registerNumber, registerNumberReader } from "@/lib/leads/phone";

describe("phoneScreeningText", () => {
  it("names the screening's date and the callable share, or why there is none", () => {
    expect(phoneScreeningText(null)).toBe("Phones not yet screened against the TPS and CTPS");
    expect(phoneScreeningText({ screenedAt: "2026-11-20", callablePercent: 83, current: true })).toBe(
      "Phones screened against the TPS and CTPS on Nov 20, 2026: 83% callable",
    );
    expect(phoneScreeningText({ screenedAt: "2026-10-01", callablePercent: 83, current: false })).toBe(
      "Phones last screened against the TPS and CTPS on Oct 1, 2026: over 28 days ago, so unscreened",
    );
  });
});

describe("checkPhone and registerNumber", () => {
  it("reads every common UK spelling to one E.164 number", () => {
    for (const text of [
      "020 7946 0018",
      "+442079460018",
      "442079460018",
      "(020) 7946-0018",
      "+44 (0)20 7946 0018",
    ]) {
      expect(checkPhone(text, "UK"), text).toEqual({ e164: "+442079460018", status: "unscreened" });
      expect(registerNumber(text), text).toBe("+442079460018");
    }
  });

  it("tells a foreign or invalid number apart, and validates USA numbers", () => {
    expect(checkPhone("+1 212 555 0100", "UK")).toEqual({ e164: "+12125550100", status: "not_a_uk_number" });
    expect(checkPhone("12345", "UK")).toEqual({ e164: "", status: "invalid_number" });
    expect(checkPhone("", "UK")).toEqual({ e164: "", status: "invalid_number" });
    expect(checkPhone("(212) 555-0100", "USA")).toEqual({ e164: "+12125550100", status: "valid_number" });
    expect(checkPhone("555", "USA")).toEqual({ e164: "", status: "invalid_number" });
    expect(registerNumber("+1 212 555 0100")).toBeNull();
    expect(registerNumber("not a number")).toBeNull();
  });
});

describe("registerNumberReader", () => {
  it("answers exactly what registerNumber answers, line after line of every spelling", () => {
    // A fixed pseudo-random walk over national numbers of 6 to 12 digits, every leading digit, in
    // the spellings a register or a careless export holds, some foreign.
    let seed = 7;
    const next = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % below;
    };
    const spellings = [
      (n: string) => `0${n}`,
      (n: string) => `+44${n}`,
      (n: string) => `44${n}`,
      (n: string) => `0044${n}`,
      (n: string) => `+44 ${n.slice(0, 4)} ${n.slice(4)}`,
      (n: string) => `0${n.slice(0, 3)} ${n.slice(3, 7)} ${n.slice(7)}`,
      (n: string) => `+1${n}`,
      (n: string) => `+353 ${n}`,
      (n: string) => n,
      (n: string) => `(0${n.slice(0, 3)}) ${n.slice(3)}`,
    ];
    const read = registerNumberReader();
    const mismatches: string[] = [];
    for (let index = 0; index < 40_000; index++) {
      const length = 6 + next(7);
      let national = "";
      for (let digit = 0; digit < length; digit++) national += String(next(10));
      const text = spellings[next(spellings.length)](national);
      const expected = registerNumber(text);
      if (read(text) !== expected) mismatches.push(`${text}: ${expected}`);
    }
    expect(mismatches).toEqual([]);
  });
});
