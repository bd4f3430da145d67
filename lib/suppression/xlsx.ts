import "server-only";
import type { Readable } from "node:stream";
import { SaxesParser, type SaxesTagPlain } from "saxes";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { AppError, badRequest, tooLarge } from "@/lib/errors";
import { MAX_CELL, MAX_COLUMNS, type ListRow } from "@/lib/suppression/entries";

// The cells of an uploaded XLSX workbook, a sheet at a time, as text. A workbook is a zip of XML
// parts: a small file can inflate to gigabytes, so every part's declared size is bounded before it
// is opened, and yauzl stops a part that inflates past its declared size. Shared strings are read
// first, whatever their place in the zip; each sheet is then parsed as it inflates (saxes). A
// cell's text is kept only up to one character past the longest entry: a longer cell is no entry.

/** The most the workbook (and so any one part: a sheet, the shared strings) may inflate to. */
export const MAX_WORKBOOK_BYTES = 64 * 1024 * 1024;
export const MAX_SHARED_STRINGS = 1_000_000;
const MAX_PARTS = 1000;
const TOO_MANY_STRINGS = `The XLSX file holds too many different texts: at most ${MAX_SHARED_STRINGS.toLocaleString("en-US")} are read. Save the list as .csv, or keep only the columns you need.`;
const SHEET = /^xl\/worksheets\/[^/]+\.xml$/i;
const SHARED_STRINGS = "xl/sharedStrings.xml";

const unreadable = (detail: string) => {
  const message = `The XLSX file could not be read (${detail}). Save it again as .xlsx or .csv.`;
  return badRequest(message, { file: message });
};

function openZip(bytes: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) =>
      error ? reject(unreadable("not a zip archive")) : resolve(zip),
    ),
  );
}

function zipEntries(zip: ZipFile): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  return new Promise((resolve, reject) => {
    zip.on("entry", (entry: Entry) => {
      entries.set(entry.fileName, entry);
      if (entries.size > MAX_PARTS) return reject(unreadable("too many parts"));
      zip.readEntry();
    });
    zip.on("end", () => resolve(entries));
    zip.on("error", () => reject(unreadable("a damaged zip archive")));
    zip.readEntry();
  });
}

function openPart(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) =>
      error ? reject(unreadable("a damaged part")) : resolve(stream),
    ),
  );
}

const localName = (name: string) => name.slice(name.indexOf(":") + 1);

/**
 * Parses one part as it inflates: `build` listens to the parser's events and answers a drain of
 * what they collected, yielded after each chunk. A damaged part or bad XML is a 400.
 */
async function* parsePart<T>(
  zip: ZipFile,
  entry: Entry,
  build: (parser: SaxesParser) => () => T[],
): AsyncGenerator<T[]> {
  const parser = new SaxesParser();
  const drain = build(parser);
  const stream = await openPart(zip, entry);
  stream.setEncoding("utf8");
  try {
    for await (const chunk of stream) {
      parser.write(chunk as string);
      yield drain();
    }
    parser.close();
    yield drain();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreadable(/too many bytes/.test(String(error)) ? "a part larger than it says" : "damaged XML");
  } finally {
    stream.destroy();
  }
}

/** The text of each `<si>` of the shared strings, phonetic runs (`<rPh>`) left out. */
function sharedStringsOf(parser: SaxesParser): () => string[] {
  let items: string[] = [];
  let text: string | null = null;
  let phonetic = 0;
  let capture = false;
  parser.on("opentag", (tag: SaxesTagPlain) => {
    const name = localName(tag.name);
    if (name === "si") text = "";
    else if (name === "rPh") phonetic += 1;
    else if (name === "t") capture = phonetic === 0;
  });
  parser.on("text", (value) => {
    if (capture && text !== null && text.length <= MAX_CELL) text += value;
  });
  parser.on("closetag", (tag) => {
    const name = localName(tag.name);
    if (name === "t") capture = false;
    else if (name === "rPh") phonetic -= 1;
    else if (name === "si" && text !== null) {
      items.push(text);
      text = null;
    }
  });
  return () => {
    const done = items;
    items = [];
    return done;
  };
}

/** A cell reference's column: "C7" -> 2. */
function columnOf(reference: string, fallback: number): number {
  const letters = /^[A-Z]{1,3}/.exec(reference)?.[0];
  if (!letters) return fallback;
  return [...letters].reduce((index, letter) => index * 26 + letter.charCodeAt(0) - 64, 0) - 1;
}

/** A sheet's rows of cell texts (shared strings resolved; numbers and formulas' results as written). */
function sheetRowsOf(shared: string[]): (parser: SaxesParser) => () => string[][] {
  return (parser) => {
    let rows: string[][] = [];
    let row: string[] = [];
    let column = -1;
    let type = "";
    let text = "";
    let capture = false;
    let phonetic = 0;
    parser.on("opentag", (tag: SaxesTagPlain) => {
      const name = localName(tag.name);
      if (name === "row") row = [];
      else if (name === "c") {
        column = columnOf(tag.attributes.r ?? "", row.length);
        type = tag.attributes.t ?? "";
        text = "";
      } else if (name === "rPh") phonetic += 1;
      else if (name === "v" || name === "t") capture = phonetic === 0;
    });
    parser.on("text", (value) => {
      if (capture && text.length <= MAX_CELL) text += value;
    });
    parser.on("closetag", (tag) => {
      const name = localName(tag.name);
      if (name === "v" || name === "t") capture = false;
      else if (name === "rPh") phonetic -= 1;
      else if (name === "c" && column >= 0 && column < MAX_COLUMNS) {
        while (row.length < column) row.push("");
        row[column] = type === "s" ? (shared[Number(text)] ?? "") : text;
      } else if (name === "row") rows.push(row);
    });
    return () => {
      const done = rows;
      rows = [];
      return done;
    };
  };
}

/** The rows of every sheet of the workbook, each sheet its own table, a chunk's rows at a time. */
export async function* xlsxRows(bytes: Buffer): AsyncGenerator<ListRow[]> {
  const zip = await openZip(bytes);
  try {
    const entries = await zipEntries(zip);
    const parts = [...entries.values()];
    const sheets = parts
      .filter((entry) => SHEET.test(entry.fileName))
      .sort((a, b) => a.fileName.localeCompare(b.fileName, "en", { numeric: true }));
    if (sheets.length === 0) throw unreadable("no worksheet");
    const declared = parts.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    if (declared > MAX_WORKBOOK_BYTES) {
      throw unreadable("it inflates to more than a list can hold");
    }
    const shared: string[] = [];
    const strings = entries.get(SHARED_STRINGS);
    if (strings) {
      for await (const items of parsePart(zip, strings, sharedStringsOf)) {
        shared.push(...items);
        if (shared.length > MAX_SHARED_STRINGS) throw tooLarge(TOO_MANY_STRINGS, { file: TOO_MANY_STRINGS });
      }
    }
    for (const [table, sheet] of sheets.entries()) {
      for await (const rows of parsePart(zip, sheet, sheetRowsOf(shared))) {
        if (rows.length) yield rows.map((cells) => ({ table, cells }));
      }
    }
  } finally {
    zip.close();
  }
}
