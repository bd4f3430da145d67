import "server-only";
import { PassThrough, type Readable } from "node:stream";
import type { PoolClient } from "pg";
import { csvCell, csvHead, csvLine } from "@/lib/csv";
import { CopyRows, copyOrderLeads } from "@/lib/leads/copy-rows";
import type { Column } from "@/lib/packages";

// The lead download as CSV, streamed straight out of PostgreSQL (copy-rows.ts): each row is
// written out as a CSV line here, byte by byte, without decoding it into JavaScript strings: nearly
// every cell needs nothing (no quote character, no space or formula sign in front, or a plain
// phone number) and is copied as it is; the few others go through csvCell. COPY's own CSV format cannot be used for the lines: it ends
// them with LF (the file uses CRLF, as RFC 4180 and the admin exports do), it does not quote cells
// holding ";" or a tab, and it does not guard formulas.
const PHONES = { keepPhoneNumbers: true };

// Bytes that make csvCell quote a cell anywhere in it, and bytes that make it look further when a
// cell starts with them (all ASCII: csvCell's patterns match nothing else there).
const QUOTED = new Uint8Array(256);
for (const character of '",;\t\r\n') QUOTED[character.charCodeAt(0)] = 1;
const SPACE = 32;
const PLUS = 43;
const MINUS = 45;
const FORMULA_START = new Set([SPACE, PLUS, MINUS, 61, 64]);
const FORMULA_START_BYTE = new Uint8Array(256);
for (const byte of FORMULA_START) FORMULA_START_BYTE[byte] = 1;
// The characters of a plain phone number after its sign (ASCII spaces only, deliberately narrower
// than csvCell's phone rule, which keeps such a cell as it is).
const PHONE_CHARACTER = new Uint8Array(256);
for (const character of "0123456789 ().-") PHONE_CHARACTER[character.charCodeAt(0)] = 1;
const COMMA = 44;

/** Whether csvCell (phone numbers kept) leaves the cell in data[start, end) as it is. */
function untouched(data: Buffer, start: number, end: number): boolean {
  if (start === end) return true;
  for (let index = start; index < end; index++) if (QUOTED[data[index]]) return false;
  const first = data[start];
  if (!FORMULA_START.has(first)) return true;
  if (first !== PLUS && first !== MINUS) return false;
  for (let index = start + 1; index < end; index++) if (!PHONE_CHARACTER[data[index]]) return false;
  return true;
}

/** Writes COPY's binary rows as CSV lines, a cell at a time. */
class CopyCsvLines extends CopyRows {
  protected override row(data: Buffer, fields: number): void {
    const { starts, lengths } = this;
    // A line is never longer than twice its row: a cell grows by at most its length and 3 bytes
    // (guard, quotes, doubled quotes), and its 4-byte length prefix more than pays for those.
    this.reserve(2 * (starts[fields - 1] + Math.max(lengths[fields - 1], 0) - starts[0]) + 8);
    const lines = this.out;
    let written = this.written;
    for (let field = 0; field < fields; field++) {
      if (field > 0) lines[written++] = COMMA;
      const length = lengths[field];
      if (length <= 0) continue;
      const cell = starts[field];
      // The common case in one pass: checked and copied byte by byte (cheaper than a copy call
      // for cells this short); a cell that turns out to need a look is redone below.
      let plain = !FORMULA_START_BYTE[data[cell]];
      for (let index = 0; plain && index < length; index++) {
        const byte = data[cell + index];
        if (QUOTED[byte]) plain = false;
        else lines[written + index] = byte;
      }
      if (plain) {
        written += length;
      } else if (untouched(data, cell, cell + length)) {
        written += data.copy(lines, written, cell, cell + length);
      } else {
        written += lines.write(csvCell(data.toString("utf8", cell, cell + length), PHONES), written);
      }
    }
    lines[written++] = 13;
    lines[written++] = 10;
    this.written = written;
  }
}

/**
 * The CSV file of the order's leads, read over `client` (see copyOrderLeads). The buyer's own file
 * opens with a byte-order mark, which spreadsheets need to read UTF-8; a CRM's file (`crmHeaders`,
 * the headers its import maps) goes without, which import tools read as UTF-8 anyway.
 */
export function csvFile(
  client: PoolClient,
  orderId: string,
  columns: Column[],
  crmHeaders?: string[],
): Readable {
  const output = new PassThrough();
  output.write(
    crmHeaders
      ? csvLine(crmHeaders, PHONES)
      : csvHead(
          columns.map((column) => column.header),
          PHONES,
        ),
  );
  void copyOrderLeads(client, orderId, columns, new CopyCsvLines(), output);
  return output;
}
