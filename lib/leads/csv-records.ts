import "server-only";
import { Readable, type TransformCallback } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { CsvError, Parser, type Options } from "csv-parse";
import { AppError } from "@/lib/errors";

// The records of an uploaded CSV file, each with the line it ends on (for the import report). Most
// files are plain: no quotes, one record per line. Those lines are split here, ten times faster
// than csv-parse, which is most of an import's time otherwise. From the first line that is not
// plain (a quote, a stray CR, an overlong line), the rest of the file goes to csv-parse, which then
// reads exactly what it would have read from the start: the same records, lines and errors.

/** A record and the line it ends on, or a malformed spot, which ends the records. */
export type Parsed = { record: string[]; line: number } | { malformed: CsvError };

/** The input stream itself failed (size limit, broken multipart body, client gone). */
export class UploadError extends Error {}

const OPTIONS: Options = {
  relax_column_count: true,
  skip_empty_lines: true,
  // A quote inside an unquoted cell (John "JJ" Smith) is kept as text, as spreadsheets do.
  relax_quotes: true,
  max_record_size: 64 * 1024,
};
// Well under max_record_size, so a line this fast path accepts can never be one csv-parse refuses.
const MAX_PLAIN_LINE = 16 * 1024;
const BOM = "\uFEFF";

/**
 * csv-parse, with each record paired with the line it ends on, `lineOffset` lines in, and a
 * malformed spot delivered in order after the records before it, as an item of its own that ends
 * the stream. Its own `info` option builds an object of a dozen fields per record for the line; and
 * a parse error would destroy the stream, dropping records not yet read.
 */
class ReportingParser extends Parser {
  constructor(
    options: Options,
    private readonly lineOffset: number,
  ) {
    super(options);
  }

  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    // Records are pushed while the parser stands at their last line.
    const item = Array.isArray(chunk) ? { record: chunk, line: this.lineOffset + this.info.lines } : chunk;
    return super.push(item, encoding);
  }

  override _transform(chunk: Buffer, encoding: BufferEncoding, callback: TransformCallback): void {
    super._transform(chunk, encoding, (error) => this.settle(error, callback));
  }

  override _flush(callback: TransformCallback): void {
    super._flush((error) => this.settle(error, callback));
  }

  private settle(error: Error | null | undefined, callback: TransformCallback): void {
    if (!(error instanceof CsvError)) return callback(error);
    if (typeof error.lines === "number" && this.lineOffset > 0) {
      // The message names the line too (first, before any quoted value).
      error.message = error.message.replace(
        `at line ${error.lines}`,
        `at line ${error.lines + this.lineOffset}`,
      );
      error.lines += this.lineOffset;
    }
    // csv-parse ignores what comes after an error (the rest of the upload is read and dropped).
    this.push({ malformed: error });
    this.push(null);
    callback();
  }
}

/**
 * Reads `input` (UTF-8 bytes) as CSV records, in batches (a generator step per record would cost
 * more than splitting it); a failure of `input` is thrown as an UploadError, unless it already says
 * what went wrong to the caller (an AppError: a size limit, a timeout).
 */
export async function* csvRecords(input: Readable): AsyncGenerator<Parsed[]> {
  const chunks = input[Symbol.asyncIterator]();
  const decoder = new StringDecoder("utf8");
  const next = async (): Promise<string | null> => {
    try {
      const { done, value } = (await chunks.next()) as IteratorResult<Buffer>;
      return done ? null : decoder.write(value);
    } catch (error) {
      throw error instanceof AppError ? error : new UploadError((error as Error).message);
    }
  };

  let parser: ReportingParser | undefined;
  let source: Readable | undefined;
  try {
    yield* read();
  } finally {
    source?.destroy();
    parser?.destroy();
    // Whatever is left of the upload is read and dropped, so the client's request can complete.
    if (!input.readableEnded) void drain(chunks);
  }

  async function* read(): AsyncGenerator<Parsed[]> {
    let text = "";
    let at = 0;
    let line = 0;
    // The record delimiter, as csv-parse settles it from the first line break: "\r\n" or "\n".
    let eol: string | undefined;
    let started = false;
    let ended = false;
    // Where the text holds its next quote and CR (or -1), searched again once passed.
    let quote = -1;
    let cr = -1;
    let batch: Parsed[] = [];
    plain: for (;;) {
      const newline = text.indexOf("\n", at);
      if (newline === -1) {
        // A line still unfinished this long (or the end of the input) ends the plain lines.
        if (ended || text.length - at > MAX_PLAIN_LINE) break;
        if (batch.length) yield batch;
        batch = [];
        const chunk = await next();
        if (chunk === null) {
          ended = true;
          text = text.slice(at) + decoder.end();
        } else {
          text = text.slice(at) + chunk;
        }
        at = 0;
        if (!started && (text.length > 0 || ended)) {
          if (text.startsWith(BOM)) text = text.slice(1);
          started = true;
        }
        quote = text.indexOf('"');
        cr = text.indexOf("\r");
        if (ended) {
          // The last line, without a line break.
          const last = text.slice(at);
          if (last === "") return;
          if (last.includes('"') || last.includes("\r") || last.length > MAX_PLAIN_LINE) break;
          yield [{ record: last.split(","), line: line + 1 }];
          return;
        }
        continue;
      }
      const crlf = newline > at && text.charCodeAt(newline - 1) === 13;
      const end = crlf ? newline - 1 : newline;
      if ((eol !== undefined && (eol === "\r\n") !== crlf) || end - at > MAX_PLAIN_LINE) break;
      if (quote !== -1 && quote < at) quote = text.indexOf('"', at);
      if (cr !== -1 && cr < at) cr = text.indexOf("\r", at);
      if ((quote !== -1 && quote < end) || (cr !== -1 && cr < end)) break;
      eol ??= crlf ? "\r\n" : "\n";
      line += 1;
      if (end > at) batch.push({ record: text.slice(at, end).split(","), line });
      at = newline + 1;
    }
    if (batch.length) yield batch;

    // Not plain from `at` on: csv-parse reads the rest, as it would have read it all along.
    async function* rest(): AsyncGenerator<string> {
      yield text.slice(at);
      if (ended) return;
      for (let chunk = await next(); chunk !== null; chunk = await next()) yield chunk;
      const tail = decoder.end();
      if (tail) yield tail;
    }
    const slow = new ReportingParser(
      { ...OPTIONS, bom: !started, ...(eol ? { record_delimiter: eol } : {}) },
      line,
    );
    parser = slow;
    source = Readable.from(rest(), { objectMode: false });
    source.on("error", (error) => slow.destroy(error));
    source.pipe(slow);
    for await (const item of slow as AsyncIterable<Parsed>) yield [item];
  }
}

async function drain(chunks: AsyncIterator<unknown>): Promise<void> {
  try {
    while (!(await chunks.next()).done);
  } catch {
    // the upload failed meanwhile: nothing left to read
  }
}
