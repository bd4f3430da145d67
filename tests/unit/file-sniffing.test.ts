// Attachments are kept only when their first bytes agree with their extension.
import { describe, expect, it } from "vitest";
import { checkFile, contentMatchesExtension } from "@/lib/custom-requests/files";

const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
const zip = (...names: string[]) =>
  Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(names.join("\0"), "latin1")]);
const docx = zip("[Content_Types].xml", "word/document.xml");
const xlsx = zip("[Content_Types].xml", "xl/workbook.xml");

describe("contentMatchesExtension", () => {
  it("knows a PDF by its %PDF- signature", () => {
    expect(contentMatchesExtension("pdf", Buffer.from("%PDF-1.7\n..."))).toBe(true);
    expect(contentMatchesExtension("pdf", Buffer.from("%PD"))).toBe(false);
    expect(contentMatchesExtension("pdf", Buffer.from("<html>%PDF-"))).toBe(false);
  });

  it("knows legacy .doc and .xls by the OLE2 container signature", () => {
    expect(contentMatchesExtension("doc", OLE2)).toBe(true);
    expect(contentMatchesExtension("xls", OLE2)).toBe(true);
    expect(contentMatchesExtension("doc", Buffer.from("%PDF-1.7"))).toBe(false);
  });

  it("tells .docx from .xlsx by the package's part folder, and refuses a plain zip", () => {
    expect(contentMatchesExtension("docx", docx)).toBe(true);
    expect(contentMatchesExtension("xlsx", xlsx)).toBe(true);
    expect(contentMatchesExtension("docx", xlsx)).toBe(false);
    expect(contentMatchesExtension("xlsx", docx)).toBe(false);
    expect(contentMatchesExtension("docx", zip("word/document.xml"))).toBe(false);
    expect(contentMatchesExtension("xlsx", Buffer.concat([Buffer.from("x"), xlsx]))).toBe(false);
  });

  it("takes text as CSV, with tabs, line breaks and UTF-8, and refuses binary bytes", () => {
    expect(contentMatchesExtension("csv", Buffer.from("name,email\r\nAda\t,ada@example.com\n"))).toBe(true);
    expect(contentMatchesExtension("csv", Buffer.from("città,Zürich\n", "utf8"))).toBe(true);
    expect(contentMatchesExtension("csv", Buffer.from("a,b\u0000c"))).toBe(false);
    expect(contentMatchesExtension("csv", Buffer.from("a,b\u007f"))).toBe(false);
    expect(contentMatchesExtension("csv", Buffer.from([0x61, 0x01]))).toBe(false);
    expect(contentMatchesExtension("csv", OLE2)).toBe(false);
  });
});

describe("checkFile", () => {
  it("stores a matching file under a safe name with its content type", () => {
    const data = Buffer.from("%PDF-1.4");
    expect(checkFile("../../Brief: Q3?.pdf", data)).toEqual({
      fileName: "Brief_ Q3_.pdf",
      contentType: "application/pdf",
      size: data.length,
      data,
    });
  });

  it("says why a file is refused", () => {
    expect(checkFile("notes.txt", Buffer.from("hi"))).toEqual({
      fileName: "notes.txt",
      reason: "Only PDF, Word, CSV or Excel files are accepted",
    });
    expect(checkFile("empty.csv", Buffer.alloc(0))).toEqual({
      fileName: "empty.csv",
      reason: "The file is empty",
    });
    expect(checkFile("fake.xlsx", Buffer.from("%PDF-1.4"))).toEqual({
      fileName: "fake.xlsx",
      reason: "The file's content is not a valid .xlsx file",
    });
  });
});
