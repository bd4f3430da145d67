import { describe, expect, it } from "vitest";
import { parseVerifiedAt } from "@/lib/leads/import-dates";
import { mapHeader, toLead } from "@/lib/leads/import-rows";

const now = new Date("2026-06-01T12:00:00Z");
const iso = (text: string, country: "USA" | "UK" = "USA") =>
  parseVerifiedAt(text, country, now)?.toISOString() ?? null;

describe("import dates", () => {
  it("reads ISO 8601 first, in UTC unless an offset is given", () => {
    expect(iso("2024-01-05")).toBe("2024-01-05T00:00:00.000Z");
    expect(iso("2024-01-05T10:30:00Z")).toBe("2024-01-05T10:30:00.000Z");
    expect(iso("2024-01-05 10:30")).toBe("2024-01-05T10:30:00.000Z");
    expect(iso("2024-01-05T10:30:00.250+02:00")).toBe("2024-01-05T08:30:00.250Z");
    expect(iso("2024/01/05", "UK")).toBe("2024-01-05T00:00:00.000Z");
  });

  it("reads a slashed date day-first for a UK row and month-first for a USA row", () => {
    expect(iso("05/01/2024", "UK")).toBe("2024-01-05T00:00:00.000Z");
    expect(iso("05/01/2024", "USA")).toBe("2024-05-01T00:00:00.000Z");
    expect(iso("15/01/2024", "UK")).toBe("2024-01-15T00:00:00.000Z");
    expect(iso("1/15/2024", "USA")).toBe("2024-01-15T00:00:00.000Z");
  });

  it("refuses a date that does not fit the row's country, never swapping it", () => {
    expect(iso("15/01/2024", "USA")).toBeNull();
    expect(iso("01/15/2024", "UK")).toBeNull();
    expect(iso("13/13/2024", "UK")).toBeNull();
    expect(iso("31/04/2024", "UK")).toBeNull();
    expect(iso("2024-02-30")).toBeNull();
    expect(iso("January 5, 2024")).toBeNull();
    expect(iso("45123")).toBeNull();
    expect(iso("2999-01-01")).toBeNull();
    expect(iso("1989-12-31")).toBeNull();
  });

  it("reports a refused date for its line through toLead", () => {
    const columns = mapHeader(["email", "country", "verified at"]);
    expect(toLead(columns, ["a@x.com", "USA", "15/01/2024"], now)).toEqual({
      code: "verified_at",
      reason: 'Invalid verified date "15/01/2024"',
    });
    const uk = toLead(columns, ["b@x.com", "UK", "15/01/2024"], now);
    expect("lead" in uk && uk.lead.verifiedAt.toISOString()).toBe("2024-01-15T00:00:00.000Z");
  });
});
