import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "@/lib/csv";

describe("csvCell", () => {
  it("quotes cells holding a semicolon or a tab, as it does commas, quotes and line breaks", () => {
    expect(csvCell("Acme; Inc")).toBe('"Acme; Inc"');
    expect(csvCell("a\tb")).toBe('"a\tb"');
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("plain text")).toBe("plain text");
  });

  it("neutralises a formula sign, also after leading spaces", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell('  =HYPERLINK("http://x")')).toBe('"\'  =HYPERLINK(""http://x"")"');
    expect(csvCell("   @SUM(A1)")).toBe("'   @SUM(A1)");
    expect(csvCell(" -2+3")).toBe("' -2+3");
    expect(csvCell("\t=1")).toBe('"\'\t=1"');
    expect(csvCell("a = b")).toBe("a = b");
  });

  it("keeps phone numbers in lead downloads", () => {
    expect(csvCell("+1 (212) 555-0100", { keepPhoneNumbers: true })).toBe("+1 (212) 555-0100");
    expect(csvCell("+1 (212) 555-0100")).toBe("'+1 (212) 555-0100");
    expect(csvLine(["x;y", 1])).toBe('"x;y",1\r\n');
  });
});
