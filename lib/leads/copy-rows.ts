import "server-only";
import { Transform, type Writable, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { to as copyTo } from "pg-copy-streams";
import type { PoolClient } from "pg";
import { columnSql, orderLeadsSql, type DeliveryRow } from "@/lib/leads/delivery";
import type { Column } from "@/lib/packages";
import { bookMainThread, downloadStarted } from "@/lib/limits/main-thread-share";

// The order's leads straight out of PostgreSQL for the downloads: COPY sends the package's columns
// as they are read, in its binary format, and each file format writes its rows from those bytes
// without decoding them into JavaScript strings.

// COPY's binary format: an 11-byte signature, 32-bit flags and header-extension length, then per
// row a 16-bit field count and, per field, a 32-bit length (-1 for NULL) and the bytes (the text
// as stored, UTF-8); a field count of -1 ends the data.
const SIGNATURE_LENGTH = 11;
// COPY arrives in socket-sized pieces (about 13 KB); each piece handed on costs the same fixed
// overhead on its way to the socket (web stream, Next's response), so output is passed on in
// chunks of at least 64 KB.
const OUTPUT_CHUNK = 64 * 1024;
// Writing the rows is about a quarter of what a download costs the main thread (a CPU profile of
// XLSX downloads beside other requests): COPY's framing, the file format's stream and the socket
// writes follow at the rows' pace. A piece books its rows' time this many times over.
const DOWNLOAD_COST_OVER_ROWS = 4;

/**
 * Turns COPY's binary output into a file's bytes, a row at a time: `row` gets each complete row's
 * cells as offsets into `data` and writes into `out` from `written` after `reserve`.
 */
export abstract class CopyRows extends Transform {
  private pending: Buffer = Buffer.alloc(0);
  private headerRead = false;
  private ended = false;
  private parts: Buffer[] = [];
  private partsLength = 0;
  protected out: Buffer = Buffer.allocUnsafe(2 * OUTPUT_CHUNK);
  protected written = 0;
  protected starts = new Int32Array(0);
  protected lengths = new Int32Array(0);

  /**
   * `firstBytes`: how much COPY output to gather before the first row is written;
   * `readableHighWaterMark`: how much output may wait for its reader before COPY is held back.
   */
  constructor(
    private readonly firstBytes = 0,
    readableHighWaterMark?: number,
  ) {
    super({ readableHighWaterMark });
    this.once("close", downloadStarted());
  }

  /** Writes one row; its cells are data[starts[i], starts[i] + lengths[i]), length -1 for NULL. */
  protected abstract row(data: Buffer, fields: number): void;

  /** Called once, before the first row is written, with all the rows gathered so far. */
  protected start?(data: Buffer, at: number): void;

  /** Writes what follows the last row. */
  protected finish?(): void;

  /** Makes room for `bytes` more bytes in `out` at `written`. */
  protected reserve(bytes: number): void {
    if (this.written + bytes <= this.out.length) return;
    this.parts.push(this.out.subarray(0, this.written));
    this.partsLength += this.written;
    this.out = Buffer.allocUnsafe(Math.max(2 * OUTPUT_CHUNK, bytes));
    this.written = 0;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    if (!this.headerRead && data.length < this.firstBytes) {
      this.pending = data === chunk ? Buffer.from(chunk) : data;
      return callback();
    }
    const started = performance.now();
    this.rows(data);
    // Within the downloads' share of the main thread (main-thread-share.ts): waiting holds COPY back.
    const wait = bookMainThread((performance.now() - started) * DOWNLOAD_COST_OVER_ROWS);
    if (wait > 0) setTimeout(callback, wait);
    else callback();
  }

  override _flush(callback: TransformCallback): void {
    if (!this.headerRead || this.pending.length) this.rows(this.pending);
    if (this.ended) this.finish?.();
    this.pushOut();
    callback(this.ended ? null : new Error("COPY output ended early"));
  }

  private rows(data: Buffer): void {
    let at = 0;
    if (!this.headerRead) {
      if (data.length < SIGNATURE_LENGTH + 8) return this.keep(data, 0);
      at = SIGNATURE_LENGTH + 8 + data.readUInt32BE(SIGNATURE_LENGTH + 4);
      if (data.length < at) return this.keep(data, 0);
      this.headerRead = true;
      this.start?.(data, at);
    }
    rows: while (!this.ended && data.length - at >= 2) {
      const fields = data.readInt16BE(at);
      if (fields === -1) {
        this.ended = true;
        at += 2;
        break;
      }
      if (this.starts.length < fields) {
        this.starts = new Int32Array(fields);
        this.lengths = new Int32Array(fields);
      }
      // First make sure the whole row is here.
      let end = at + 2;
      for (let field = 0; field < fields; field++) {
        if (data.length - end < 4) break rows;
        const length = data.readInt32BE(end);
        this.starts[field] = end + 4;
        this.lengths[field] = length;
        end += 4 + Math.max(length, 0);
        if (end > data.length) break rows;
      }
      this.row(data, fields);
      at = end;
    }
    if (this.partsLength + this.written >= OUTPUT_CHUNK || this.ended) this.pushOut();
    this.keep(data, at);
  }

  private pushOut(): void {
    const length = this.partsLength + this.written;
    if (length) this.push(Buffer.concat([...this.parts, this.out.subarray(0, this.written)], length));
    this.parts = [];
    this.partsLength = 0;
    this.written = 0;
  }

  private keep(data: Buffer, from: number): void {
    // A copy, so the rest does not pin the whole chunk it came in.
    this.pending = Buffer.from(data.subarray(from));
  }
}

/**
 * Streams the order's leads (the package's columns, in allocation order) over `client`, a
 * connection of copyPool() that this releases when done, through `rows`, into `output` if given
 * (else whoever reads `rows` takes them); a failure destroys `output` or `rows`.
 */
export async function copyOrderLeads(
  client: PoolClient,
  orderId: string,
  columns: Column[],
  rows: CopyRows,
  output?: Writable,
): Promise<void> {
  const failed = output ?? rows;
  const select = columns.map(({ key }) => columnSql(key)).join(", ");
  let failure: Error | undefined;
  try {
    const copy = client.query(copyTo(`COPY (${orderLeadsSql(orderId, select)}) TO STDOUT (FORMAT binary)`));
    // Back-pressure all the way: a slow reader pauses COPY in PostgreSQL, nothing piles up here.
    await (output ? pipeline(copy, rows, output) : pipeline(copy, rows));
  } catch (error) {
    failure = error as Error;
    failed.destroy(failure);
  } finally {
    // A connection left in the middle of a COPY (the buyer went away) cannot be reused.
    client.release(failure);
  }
}

/** Up to `limit` complete rows of COPY's binary output from `at` on, decoded. */
export function decodeRows(data: Buffer, at: number, limit: number): DeliveryRow[] {
  const rows: DeliveryRow[] = [];
  while (rows.length < limit && data.length - at >= 2) {
    const fields = data.readInt16BE(at);
    if (fields === -1) break;
    const row: DeliveryRow = [];
    let cell = at + 2;
    for (let field = 0; field < fields; field++) {
      if (data.length - cell < 4) return rows;
      const length = data.readInt32BE(cell);
      cell += 4;
      if (cell + Math.max(length, 0) > data.length) return rows;
      row.push(length < 0 ? null : data.toString("utf8", cell, cell + length));
      cell += Math.max(length, 0);
    }
    rows.push(row);
    at = cell;
  }
  return rows;
}

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

/** Rows in COPY's binary format (header, rows, end), as PostgreSQL would send them. */
export function encodeRows(rows: DeliveryRow[], header: boolean, end: boolean): Buffer {
  const parts: Buffer[] = [];
  if (header) parts.push(SIGNATURE, Buffer.alloc(8));
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(row.length);
    parts.push(count);
    for (const cell of row) {
      const text = cell === null ? null : Buffer.from(cell);
      const length = Buffer.alloc(4);
      length.writeInt32BE(text ? text.length : -1);
      parts.push(length);
      if (text) parts.push(text);
    }
  }
  if (end) parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}
