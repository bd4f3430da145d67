// The custom request form's own refusals, before anything is sent.
import { describe, expect, it } from "vitest";
import { refusalMessage, screenFiles } from "@/components/custom-request/screen-files";

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);
const names = (files: File[]) => files.map((item) => item.name);

describe("screenFiles", () => {
  it("takes files up to the fifth and refuses the rest", () => {
    const screened = screenFiles(3, [file("a.csv"), file("b.csv"), file("c.csv")], false);
    expect(names(screened.accepted)).toEqual(["a.csv", "b.csv"]);
    expect(screened.overLimit).toEqual(["c.csv"]);
    expect(refusalMessage(screened)).toEqual({
      title: "Too many files",
      description: "c.csv: At most 5 files can be attached.",
    });
  });

  it("refuses files over 10 MB; exactly 10 MB is fine", () => {
    const screened = screenFiles(
      0,
      [file("big.pdf", 10 * 1024 * 1024 + 1), file("ok.pdf", 10 * 1024 * 1024)],
      false,
    );
    expect(names(screened.accepted)).toEqual(["ok.pdf"]);
    expect(refusalMessage(screened)).toEqual({
      title: "File too large",
      description: "big.pdf: Each file must be 10 MB or smaller.",
    });
  });

  it("type-checks dropped files only, with the product's toast when the type is the only problem", () => {
    expect(screenFiles(0, [file("notes.txt")], false).accepted).toHaveLength(1);
    const dropped = screenFiles(0, [file("notes.txt"), file("brief.pdf")], true);
    expect(names(dropped.accepted)).toEqual(["brief.pdf"]);
    expect(refusalMessage(dropped)).toEqual({
      title: "Invalid file format",
      description: "Please upload only PDF, Word, CSV or Excel files.",
    });
  });

  it("names every problem at once, and none when all files are taken", () => {
    const mixed = screenFiles(
      4,
      [file("a.txt"), file("b.csv", 11 * 1024 * 1024), file("c.csv"), file("d.csv")],
      true,
    );
    expect(refusalMessage(mixed)).toEqual({
      title: "Some files were not added",
      description:
        "Please upload only PDF, Word, CSV or Excel files. b.csv: Each file must be 10 MB or smaller. d.csv: At most 5 files can be attached.",
    });
    expect(refusalMessage(screenFiles(0, [file("a.csv")], true))).toBeNull();
  });
});
