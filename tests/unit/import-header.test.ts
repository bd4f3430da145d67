// How the lead import reads a CSV header into fields.
import { describe, expect, it } from "vitest";
import { mapHeader, normalizeHeader } from "@/lib/leads/import-rows";

describe("normalizeHeader", () => {
  it("lower-cases and keeps letters and digits only", () => {
    for (const name of ["First Name", "first_name", "firstName", " FIRST-NAME ", "first.name"]) {
      expect(normalizeHeader(name)).toBe("firstname");
    }
    expect(normalizeHeader("Company Size (2024)")).toBe("companysize2024");
    expect(normalizeHeader("E-mail")).toBe("email");
    expect(normalizeHeader("Prénom")).toBe("prnom");
  });
});

describe("mapHeader", () => {
  it("maps known aliases to their fields by column index", () => {
    const columns = mapHeader([
      "Work Email",
      "Given Name",
      "Surname",
      "Organisation",
      "LinkedIn URL",
      "Last Verified",
    ]);
    expect(Object.fromEntries(columns)).toEqual({
      email: 0,
      firstName: 1,
      lastName: 2,
      company: 3,
      profileUrl: 4,
      verifiedAt: 5,
    });
  });

  it("keeps the first column of a field and skips unknown columns", () => {
    const columns = mapHeader(["Notes", "Email", "E-mail Address", "Country Code", "Nation"]);
    expect(Object.fromEntries(columns)).toEqual({ email: 1, country: 3 });
  });

  it("reads a single name column as the full name", () => {
    expect(Object.fromEntries(mapHeader(["Name", "Email"]))).toEqual({ fullName: 0, email: 1 });
  });
});
