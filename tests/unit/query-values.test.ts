// The one reading of a repeated query key that route(), the segment pages and the front cache share.
import { describe, expect, it } from "vitest";
import { commaList, queryRecord } from "@/lib/http/query-values.mjs";

describe("query values", () => {
  it("reads a key given twice as its comma list", () => {
    const record = queryRecord(new URLSearchParams("region=CA&page=2&region=NY,TX"));
    expect(record).toEqual({ region: "CA,NY,TX", page: "2" });
  });

  it("splits a comma list, trimmed, without empty parts", () => {
    expect(commaList(" CA, ,NY,,")).toEqual(["CA", "NY"]);
    expect(commaList("")).toEqual([]);
  });
});
