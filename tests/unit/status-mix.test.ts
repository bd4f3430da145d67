import { describe, expect, it } from "vitest";
import { allCountries, statusMixText } from "@/components/category/freshness";

describe("statusMixText", () => {
  it("gives each status's whole percent of the sellable leads", () => {
    expect(statusMixText({ valid: 880, acceptAll: 90, unknown: 30 })).toBe(
      "88% valid, 9% accept-all, 3% unknown",
    );
    expect(statusMixText({ valid: 0, acceptAll: 0, unknown: 0 })).toBe("0% valid, 0% accept-all, 0% unknown");
  });

  it("adds the countries up for the admin's view", () => {
    const usa = { valid: 80, acceptAll: 10, unknown: 5 };
    const uk = { valid: 5, acceptAll: 0, unknown: 0 };
    expect(allCountries({ USA: usa, UK: uk })).toEqual({ valid: 85, acceptAll: 10, unknown: 5 });
  });
});
