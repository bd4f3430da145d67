import "server-only";
import { CONTENT_TYPES } from "@/lib/content-types";
import { fileExtension, type AcceptedExtension } from "@/lib/schemas/custom-request";

// Attachment checks. The extension says what a file claims to be; the first bytes say what it is.
// Both must agree before a file is stored, whatever way the visitor chose it.

const PDF = Buffer.from("%PDF-", "latin1");
// Compound File Binary (OLE2): the container of legacy .doc and .xls files.
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const CSV_SAMPLE_BYTES = 64 * 1024;

/** An Office Open XML package: a zip holding [Content_Types].xml and the part folder of its kind. */
function isOfficeOpenXml(data: Buffer, partFolder: string): boolean {
  return (
    data.subarray(0, ZIP.length).equals(ZIP) &&
    data.includes("[Content_Types].xml", 0, "latin1") &&
    data.includes(partFolder, 0, "latin1")
  );
}

/** Plain text: no NUL or other binary control bytes (tab, CR, LF, FF and ESC are allowed). */
function looksLikeText(data: Buffer): boolean {
  const sample = data.subarray(0, CSV_SAMPLE_BYTES);
  for (const byte of sample) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) {
      return false;
    }
    if (byte === 0x7f) return false;
  }
  return true;
}

export function contentMatchesExtension(extension: AcceptedExtension, data: Buffer): boolean {
  switch (extension) {
    case "pdf":
      return data.subarray(0, PDF.length).equals(PDF);
    case "doc":
    case "xls":
      return data.subarray(0, OLE2.length).equals(OLE2);
    case "docx":
      return isOfficeOpenXml(data, "word/");
    case "xlsx":
      return isOfficeOpenXml(data, "xl/");
    case "csv":
      return looksLikeText(data);
  }
}

const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f<>:"/\\|?*]/g;
const MAX_NAME_LENGTH = 200;

/**
 * The text without trailing dots and white space, in linear time: a `[.\s]+$` pattern retries
 * from every dot of a long run and takes time in the square of its length.
 */
function withoutTrailingDots(text: string): string {
  let end = text.length;
  while (end > 0 && /[.\s]/.test(text[end - 1])) end -= 1;
  return text.slice(0, end);
}

/**
 * A file name safe to store, show and put in a Content-Disposition header: no directories,
 * no control or reserved characters, no leading dots, at most 200 characters, extension kept.
 */
export function sanitizeFileName(raw: string, extension: AcceptedExtension): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  const name = base.normalize("NFC").replace(UNSAFE_CHARACTERS, "_").replace(/\s+/g, " ").trim();
  const suffix = `.${extension}`;
  const withoutSuffix = name.toLowerCase().endsWith(suffix) ? name.slice(0, -suffix.length) : name;
  // No hidden files, no trailing dots or spaces (Windows drops them).
  let stem = withoutTrailingDots(withoutSuffix.replace(/^[.\s]+/, ""));
  if (!stem) stem = "attachment";
  return `${Array.from(stem)
    .slice(0, MAX_NAME_LENGTH - suffix.length)
    .join("")}${suffix}`;
}

export type FileProblem = { fileName: string; reason: string };

/**
 * Checks one received file (or its sample: see lib/custom-requests/staged-files.ts); returns its
 * stored name and type or the reason it is refused.
 */
export function checkFile(
  rawName: string,
  data: Buffer,
): { fileName: string; contentType: string; size: number; data: Buffer } | FileProblem {
  const extension = fileExtension(rawName) as AcceptedExtension;
  if (!Object.hasOwn(CONTENT_TYPES, extension)) {
    return { fileName: rawName, reason: "Only PDF, Word, CSV or Excel files are accepted" };
  }
  if (data.length === 0) return { fileName: rawName, reason: "The file is empty" };
  if (!contentMatchesExtension(extension, data)) {
    return { fileName: rawName, reason: `The file's content is not a valid .${extension} file` };
  }
  return {
    fileName: sanitizeFileName(rawName, extension),
    contentType: CONTENT_TYPES[extension],
    size: data.length,
    data,
  };
}
