import "server-only";
import { CsvError, parse } from "csv-parse";
import { badRequest } from "@/lib/errors";
import type { ListRow } from "@/lib/suppression/entries";
import { xlsxRows } from "@/lib/suppression/xlsx";

// The rows of an uploaded exclusion list, whatever it is: an XLSX workbook (by its zip signature),
// or text: CSV separated by commas, semicolons, tabs or bars (the one its first line uses most), or
// one entry a line (a one-column CSV). Anything else is refused by its content, never by its name.
// Text without quotes is split here, several times faster than csv-parse, which reads the rest.

const ZIP = Buffer.from("PK\x03\x04", "latin1");
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const SNIFF_BYTES = 64 * 1024;
const DELIMITERS = [",", ";", "\t", "|"];

const refuse = (message: string) => badRequest(message, { file: message });

/** Control bytes that no text file holds (tab, line breaks and form feed aside). */
function looksBinary(bytes: Buffer): boolean {
  const head = bytes.subarray(0, SNIFF_BYTES);
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return true;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) control += 1;
  }
  return control * 100 > head.length;
}

/** The separator the first line uses most (a comma when it has none). */
function delimiterOf(text: string): string {
  const end = text.indexOf("\n");
  const line = end < 0 ? text : text.slice(0, end);
  const uses = (delimiter: string) => line.split(delimiter).length;
  return DELIMITERS.reduce((best, delimiter) => (uses(delimiter) > uses(best) ? delimiter : best));
}

const BATCH = 5000;

/** The records in batches: a generator step per record would cost more than reading it. */
async function* csvRows(bytes: Buffer): AsyncGenerator<ListRow[]> {
  const text = bytes.toString("utf8").replace(/^\uFEFF/, "");
  const delimiter = delimiterOf(text);
  if (!text.includes('"')) {
    const lines = text.split("\n").filter((line) => line.trim());
    for (let at = 0; at < lines.length; at += BATCH) {
      yield lines.slice(at, at + BATCH).map((line) => ({ table: 0, cells: line.split(delimiter) }));
    }
    return;
  }
  const parser = parse({
    delimiter,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: 64 * 1024,
  });
  parser.end(text);
  try {
    let batch: ListRow[] = [];
    for await (const cells of parser) {
      batch.push({ table: 0, cells: cells as string[] });
      if (batch.length === BATCH) {
        yield batch;
        batch = [];
      }
    }
    yield batch;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw refuse(`The file could not be read as CSV: ${error.message}`);
  }
}

/** The file's rows; 400 for an empty, binary or old-Excel file. */
export function listRows(bytes: Buffer): AsyncIterable<ListRow[]> {
  if (bytes.length === 0) throw refuse("The file is empty");
  if (bytes.subarray(0, ZIP.length).equals(ZIP)) return xlsxRows(bytes);
  if (bytes.subarray(0, OLE.length).equals(OLE)) {
    throw refuse("Excel 97-2003 (.xls) files are not read: save the list as .xlsx or .csv");
  }
  if (looksBinary(bytes)) {
    throw refuse("This file is not a list: upload a CSV, XLSX or text file (UTF-8) of emails or domains");
  }
  return csvRows(bytes);
}
