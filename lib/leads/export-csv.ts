import "server-only";
import { PassThrough, Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { to as copyTo } from "pg-copy-streams";
import { csvCell, csvHead } from "@/lib/csv";
import { copyPool } from "@/lib/db";
import { columnSql, orderLeadsSql } from "@/lib/leads/delivery";
import type { Column } from "@/lib/packages";

// The lead download as CSV, streamed straight out of PostgreSQL: COPY sends the package's columns
// as they are read, in its binary format, and each row is written out as a CSV line here, byte by
// byte, without decoding it into JavaScript strings: nearly every cell needs nothing (no quote
// character, no space or formula sign in front, or a plain phone number) and is copied as it is;
// the few others go through csvCell. COPY's own CSV format cannot be used for the lines: it ends
// them with LF (the file uses CRLF, as RFC 4180 and the admin exports do), it does not quote cells
// holding ";" or a tab, and it does not guard formulas.
const PHONES = { keepPhoneNumbers: true };

// COPY's binary format: an 11-byte signature, 32-bit flags and header-extension length, then per
// row a 16-bit field count and, per field, a 32-bit length (-1 for NULL) and the bytes (the text
// as stored, UTF-8); a field count of -1 ends the data.
const SIGNATURE_LENGTH = 11;
// COPY arrives in socket-sized pieces (about 13 KB); each piece handed on costs the same fixed
// overhead on its way to the socket (web stream, Next's response), so lines are passed on in
// chunks of at least 64 KB.
const OUTPUT_CHUNK = 64 * 1024;

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

/** Turns COPY's binary output into CSV lines, a cell at a time. */
class CopyCsvLines extends Transform {
  private pending: Buffer = Buffer.alloc(0);
  private headerRead = false;
  private ended = false;
  private out: Buffer[] = [];
  private outLength = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let at = 0;
    if (!this.headerRead) {
      if (data.length < SIGNATURE_LENGTH + 8) return this.keep(data, 0, callback);
      at = SIGNATURE_LENGTH + 8 + data.readUInt32BE(SIGNATURE_LENGTH + 4);
      if (data.length < at) return this.keep(data, 0, callback);
      this.headerRead = true;
    }
    // A line is never longer than twice its row: a cell grows by at most its length and 3 bytes
    // (guard, quotes, doubled quotes), and its 4-byte length prefix more than pays for those.
    const lines = Buffer.allocUnsafe(2 * (data.length - at) + 2);
    let written = 0;
    rows: while (!this.ended && data.length - at >= 2) {
      const fields = data.readInt16BE(at);
      if (fields === -1) {
        this.ended = true;
        at += 2;
        break;
      }
      // First make sure the whole row is here.
      let end = at + 2;
      for (let field = 0; field < fields; field++) {
        if (data.length - end < 4) break rows;
        const length = data.readInt32BE(end);
        end += 4 + Math.max(length, 0);
        if (end > data.length) break rows;
      }
      let cell = at + 2;
      for (let field = 0; field < fields; field++) {
        if (field > 0) lines[written++] = COMMA;
        const length = data.readInt32BE(cell);
        cell += 4;
        if (length <= 0) continue;
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
        cell += length;
      }
      lines[written++] = 13;
      lines[written++] = 10;
      at = end;
    }
    if (written) {
      this.out.push(lines.subarray(0, written));
      this.outLength += written;
    }
    if (this.outLength >= OUTPUT_CHUNK || this.ended) this.pushOut();
    this.keep(data, at, callback);
  }

  override _flush(callback: TransformCallback): void {
    this.pushOut();
    callback(this.ended ? null : new Error("COPY output ended early"));
  }

  private pushOut(): void {
    if (this.outLength) this.push(Buffer.concat(this.out, this.outLength));
    this.out = [];
    this.outLength = 0;
  }

  private keep(data: Buffer, from: number, callback: TransformCallback): void {
    // A copy, so the rest does not pin the whole chunk it came in.
    this.pending = Buffer.from(data.subarray(from));
    callback();
  }
}

export function csvStream(orderId: string, columns: Column[]): ReadableStream<Uint8Array> {
  const output = new PassThrough();
  output.write(
    csvHead(
      columns.map((column) => column.header),
      PHONES,
    ),
  );
  const select = columns.map(({ key }) => columnSql(key)).join(", ");
  void (async () => {
    let failure: Error | undefined;
    const client = await copyPool()
      .connect()
      .catch((error: Error) => {
        output.destroy(error);
        return null;
      });
    if (!client) return;
    try {
      const copy = client.query(copyTo(`COPY (${orderLeadsSql(orderId, select)}) TO STDOUT (FORMAT binary)`));
      // Back-pressure all the way: a slow reader pauses COPY in PostgreSQL, nothing piles up here.
      await pipeline(copy, new CopyCsvLines(), output);
    } catch (error) {
      failure = error as Error;
      output.destroy(failure);
    } finally {
      // A connection left in the middle of a COPY (the buyer went away) cannot be reused.
      client.release(failure);
    }
  })();
  return Readable.toWeb(output) as ReadableStream<Uint8Array>;
}
