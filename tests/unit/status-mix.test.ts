import { describe, expect, it } from "vitest";
import { allCountries, statusMixText } from "@/components/category/freshness";

describe("statusMixText", () => {
  it("gives each status's whole percent of the sellable leads", () => {
    expect(statusMixText({ valid: 880, acceptAll: 90, unknown: 30 })).toBe(
      "88% valid, 9% accept-all, 3% unknown",
    );
    expect(statusMixText({ valid: 0, acceptAll: 0, unknown: 0 })).toBe("0% valid, 0% accept-all, 0% unknown");
  });

  it("adds up to 100 where rounding each share would not", () => {
    // Each rounded alone: 33% + 33% + 33% = 99%, and 67% + 17% + 17% = 101%.
    expect(statusMixText({ valid: 1, acceptAll: 1, unknown: 1 })).toBe(
      "34% valid, 33% accept-all, 33% unknown",
    );
    expect(statusMixText({ valid: 4, acceptAll: 1, unknown: 1 })).toBe(
      "67% valid, 17% accept-all, 16% unknown",
    );
    expect(statusMixText({ valid: 999, acceptAll: 1, unknown: 0 })).toBe(
      "100% valid, 0% accept-all, 0% unknown",
    );
  });

  it("adds the countries up for the admin's view", () => {
    const usa = { valid: 80, acceptAll: 10, unknown: 5 };
    const uk = { valid: 5, acceptAll: 0, unknown: 0 };
    expect(allCountries({ USA: usa, UK: uk })).toEqual({ valid: 85, acceptAll: 10, unknown: 5 });
  });
});
