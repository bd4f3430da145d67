import { describe, expect, it } from "vitest";
import { starFills } from "@/components/site/home/star-fills";

describe("starFills", () => {
  it("fills whole stars and the fraction of the last one", () => {
    expect(starFills(5)).toEqual([1, 1, 1, 1, 1]);
    expect(starFills(4.8)).toEqual([1, 1, 1, 1, 0.8]);
    expect(starFills(3.25)).toEqual([1, 1, 1, 0.25, 0]);
    expect(starFills(0)).toEqual([0, 0, 0, 0, 0]);
  });
});
