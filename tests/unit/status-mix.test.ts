import { describe, expect, it } from "vitest";
import { statusMixText } from "@/components/category/freshness";

describe("statusMixText", () => {
  it("gives each status's whole percent of the sellable leads", () => {
    expect(statusMixText({ valid: 880, acceptAll: 90, unknown: 30 })).toBe(
      "88% valid, 9% accept-all, 3% unknown",
    );
    expect(statusMixText({ valid: 0, acceptAll: 0, unknown: 0 })).toBe("0% valid, 0% accept-all, 0% unknown");
  });
});
