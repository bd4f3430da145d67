import "server-only";
import { PassThrough, Readable, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { to as copyTo } from "pg-copy-streams";
import { csvHead, csvLineSql } from "@/lib/csv";
import { copyPool } from "@/lib/db";
import { columnSql, orderLeadsSql } from "@/lib/leads/delivery";
import type { Column } from "@/lib/packages";

// The lead download as CSV, streamed straight out of PostgreSQL: each line is built by the query
// (cells guarded and quoted by csvLineSql, the same rule as csvLine) and COPY sends the lines as
// they are read, so no row is ever decoded into JavaScript values. COPY's own CSV format cannot be
// used for the lines: it ends them with LF (the file uses CRLF, as RFC 4180 and the admin exports
// do), and it does not quote cells holding ";" or a tab.
const PHONES = { keepPhoneNumbers: true };

// COPY's binary format frames each row: an 11-byte signature, 32-bit flags and header-extension
// length, then per row a 16-bit field count and, per field, a 32-bit length and the bytes (the
// text as stored, UTF-8); a field count of -1 ends the data. With one text field per row, the
// file is the concatenation of the fields.
const SIGNATURE_LENGTH = 11;
// COPY arrives in socket-sized pieces (about 13 KB); each piece handed on costs the same fixed
// overhead on its way to the socket (web stream, Next's response), so they are passed on in 64 KB
// chunks, a fifth as many.
const OUTPUT_CHUNK = 64 * 1024;

/** Turns COPY's binary output of one text column into the concatenation of its values. */
class CopyTextValues extends Transform {
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
    const values: Buffer[] = [];
    while (!this.ended && data.length - at >= 2) {
      const fields = data.readInt16BE(at);
      if (fields === -1) {
        this.ended = true;
        at += 2;
        break;
      }
      if (fields !== 1 || data.length - at < 6) break;
      const length = data.readInt32BE(at + 2);
      if (length < 0) return callback(new Error("COPY sent a NULL line"));
      if (data.length - at < 6 + length) break;
      values.push(data.subarray(at + 6, at + 6 + length));
      at += 6 + length;
    }
    this.out.push(...values);
    this.outLength += values.reduce((sum, value) => sum + value.length, 0);
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
  const cells = columns.map(({ key }) => ({
    sql: columnSql(key),
    // Dates are written as digits and the country is USA or UK: nothing there to guard or quote.
    plain: key === "verified_at" || key === "country",
    phone: key === "phone",
  }));
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
      const copy = client.query(
        copyTo(`COPY (${orderLeadsSql(orderId, csvLineSql(cells, PHONES))}) TO STDOUT (FORMAT binary)`),
      );
      // Back-pressure all the way: a slow reader pauses COPY in PostgreSQL, nothing piles up here.
      await pipeline(copy, new CopyTextValues(), output);
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
