import "server-only";
import type { Readable } from "node:stream";
import type { PoolClient } from "pg";
import { CopyRows, copyOrderLeads } from "@/lib/leads/copy-rows";
import type { Column } from "@/lib/packages";

// The lead download as JSON (an array of objects) or NDJSON (one object a line), written from
// COPY's binary rows (copy-rows.ts) byte by byte like the CSV download: a cell's UTF-8 is copied as
// it is, except the bytes a JSON string must escape. Keys are the columns' names in code
// (first_name is "firstName"); values are the cells' text, exactly as stored (no spreadsheet
// guard: no spreadsheet reads these files), and null for an empty (NULL) cell.

/** A column's key in the JSON objects: its SQL name in camelCase ("email_status" → "emailStatus"). */
export function jsonKey(column: string): string {
  return column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

// Bytes a JSON string cannot hold as they are: control characters, the quote and the backslash.
const ESCAPED = new Uint8Array(256);
for (let byte = 0; byte < 32; byte++) ESCAPED[byte] = 1;
ESCAPED[34] = 1;
ESCAPED[92] = 1;
const SHORT_ESCAPES: Record<number, number> = { 8: 98, 9: 116, 10: 110, 12: 102, 13: 114, 34: 34, 92: 92 };
const HEX = Buffer.from("0123456789abcdef");
const NULL = Buffer.from("null");
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const NEWLINE = 10;
const CLOSE = 125;

function copyInto(target: Buffer, at: number, source: Buffer): number {
  for (let index = 0; index < source.length; index++) target[at + index] = source[index];
  return at + source.length;
}

/** Writes COPY's binary rows as JSON objects, a cell at a time. */
class CopyJsonRows extends CopyRows {
  // Per column, what comes before its value: `{"firstName":`, then `,"lastName":`, ...
  private readonly keys: Buffer[];
  private readonly keysLength: number;
  private count = 0;

  constructor(
    columns: Column[],
    private readonly lines: boolean,
  ) {
    super();
    this.keys = columns.map((column, index) =>
      Buffer.from(`${index === 0 ? "{" : ","}${JSON.stringify(jsonKey(column.key))}:`),
    );
    this.keysLength = this.keys.reduce((total, key) => total + key.length, 0);
  }

  protected override start(): void {
    if (!this.lines) this.writeBytes(Buffer.from("["));
  }

  protected override finish(): void {
    if (!this.lines) this.writeBytes(Buffer.from(this.count ? "\n]\n" : "]\n"));
  }

  protected override row(data: Buffer, fields: number): void {
    const { starts, lengths, keys } = this;
    // A byte grows to at most 6 (\u001f); each cell adds its key, two quotes or a null.
    this.reserve(
      6 * (starts[fields - 1] + Math.max(lengths[fields - 1], 0) - starts[0]) +
        this.keysLength +
        4 * fields +
        4,
    );
    const out = this.out;
    let written = this.written;
    if (!this.lines) {
      if (this.count) out[written++] = COMMA;
      out[written++] = NEWLINE;
    }
    for (let field = 0; field < fields && field < keys.length; field++) {
      written = copyInto(out, written, keys[field]);
      const length = lengths[field];
      if (length < 0) {
        written = copyInto(out, written, NULL);
        continue;
      }
      out[written++] = QUOTE;
      const end = starts[field] + length;
      for (let index = starts[field]; index < end; index++) {
        const byte = data[index];
        if (!ESCAPED[byte]) {
          out[written++] = byte;
          continue;
        }
        out[written++] = BACKSLASH;
        const short = SHORT_ESCAPES[byte];
        if (short) {
          out[written++] = short;
        } else {
          // \u00XX
          out[written++] = 117;
          out[written++] = 48;
          out[written++] = 48;
          out[written++] = HEX[byte >> 4];
          out[written++] = HEX[byte & 15];
        }
      }
      out[written++] = QUOTE;
    }
    out[written++] = CLOSE;
    if (this.lines) out[written++] = NEWLINE;
    this.count++;
    this.written = written;
  }

  private writeBytes(bytes: Buffer): void {
    this.reserve(bytes.length);
    this.written = copyInto(this.out, this.written, bytes);
  }
}

/** The order's leads as JSON, or NDJSON with `lines`, read over `client` (see copyOrderLeads). */
export function jsonFile(client: PoolClient, orderId: string, columns: Column[], lines: boolean): Readable {
  const rows = new CopyJsonRows(columns, lines);
  void copyOrderLeads(client, orderId, columns, rows);
  return rows;
}
