import "server-only";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";
import type { Pool } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { AppError, badRequest } from "@/lib/errors";
import { pgTransaction } from "@/lib/pg-transaction";
import { registerNumberReader } from "./phone";
import type { RegisterName, RegisterReport } from "@/lib/schemas/admin";

// The TPS and CTPS registers (docs/product-rules.md, "UK compliance"). The admin's file (text or
// CSV, one number per line, optionally zipped) is read as it arrives, each line normalised to
// E.164 by libphonenumber-js, and COPY'd into a new table that replaces the register in the same
// transaction: a failed or cut-off upload, a file over the line limit or one with no valid number
// rolls back and leaves the previous register in force.

export const MAX_REGISTER_LINES = 25_000_000;
export const MAX_REGISTER_BYTES = 1024 * 1024 * 1024;
// The first refused lines the report lists; all are counted.
const MAX_REPORTED = 100;
const MAX_REPORTED_TEXT = 60;
const ZIP_MAGIC = Buffer.from("PK\u0003\u0004", "latin1");

const unreadableZip = (detail: string) => {
  const message = `The zip file could not be read (${detail}). Zip one text or CSV file, or upload it unzipped.`;
  return badRequest(message, { file: message });
};

function openZip(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, zip) =>
      error ? reject(unreadableZip("not a zip archive")) : resolve(zip),
    ),
  );
}

/** The zip's one file (folders and macOS resource forks aside). */
function onlyEntry(zip: ZipFile): Promise<Entry> {
  const found: Entry[] = [];
  return new Promise((resolve, reject) => {
    zip.on("entry", (entry: Entry) => {
      if (!entry.fileName.endsWith("/") && !entry.fileName.startsWith("__MACOSX/")) found.push(entry);
      if (found.length > 1) return reject(unreadableZip("it holds more than one file"));
      zip.readEntry();
    });
    zip.on("end", () => (found.length === 1 ? resolve(found[0]) : reject(unreadableZip("it holds no file"))));
    zip.on("error", () => reject(unreadableZip("a damaged zip archive")));
    zip.readEntry();
  });
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  if (entry.uncompressedSize > MAX_REGISTER_BYTES) {
    const message = `The zipped file is larger than ${MAX_REGISTER_BYTES / 1024 / 1024} MB`;
    return Promise.reject(badRequest(message, { file: message }));
  }
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) =>
      error ? reject(unreadableZip("a damaged file")) : resolve(stream),
    ),
  );
}

/**
 * The register's bytes: the upload itself, or the file inside it when it is a zip. A zip's
 * directory is at its end, so a zipped upload is first written to a temporary folder, which
 * `cleanup` removes.
 */
async function* registerBytes(input: Readable, cleanup: string[]): AsyncGenerator<Buffer> {
  const iterator = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  // The upload's own failure (a size limit, a timeout) says what went wrong; any other is a cut-off.
  const chunks = {
    next: async (): Promise<IteratorResult<Buffer>> => {
      try {
        return await iterator.next();
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw badRequest(`The upload was interrupted: ${(error as Error).message}`);
      }
    },
  };
  let head = Buffer.alloc(0);
  let ended = false;
  while (head.length < ZIP_MAGIC.length && !ended) {
    const next = await chunks.next();
    if (next.done) ended = true;
    else head = Buffer.concat([head, next.value]);
  }
  const rest = async function* (): AsyncGenerator<Buffer> {
    yield head;
    if (ended) return;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  };
  if (!head.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) {
    yield* rest();
    return;
  }
  const folder = await mkdtemp(path.join(tmpdir(), "register-"));
  cleanup.push(folder);
  const file = path.join(folder, "upload.zip");
  await pipeline(Readable.from(rest()), createWriteStream(file));
  const zip = await openZip(file);
  try {
    const entry = await openEntry(zip, await onlyEntry(zip));
    for await (const chunk of entry) yield chunk as Buffer;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unreadableZip("a damaged file");
  } finally {
    zip.close();
  }
}

/** A line's number: the first cell of a CSV line, without quotes or a byte-order mark. */
function lineCell(line: string): string {
  let cell = line.replace(/^\uFEFF/, "");
  const comma = cell.indexOf(",");
  if (comma >= 0) cell = cell.slice(0, comma);
  cell = cell.trim();
  if (cell.length >= 2 && cell.startsWith('"') && cell.endsWith('"')) cell = cell.slice(1, -1).trim();
  return cell;
}

/** The file's valid numbers as COPY text, a chunk at a time; the report counts every line. */
async function* copyText(bytes: AsyncIterable<Buffer>, report: RegisterReport): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  const registerNumber = registerNumberReader();
  let rest = "";
  let lineNumber = 0;
  const read = (line: string): string => {
    lineNumber += 1;
    const cell = lineCell(line);
    if (cell === "") return "";
    report.lines += 1;
    if (report.lines > MAX_REGISTER_LINES) {
      const message = `The register has more than ${MAX_REGISTER_LINES.toLocaleString("en-US")} lines`;
      throw badRequest(message, { file: message });
    }
    const number = registerNumber(cell);
    if (number !== null) {
      report.loaded += 1;
      return `${number}\n`;
    }
    // A first line without a digit is the CSV's header, not a refused number.
    if (report.lines === 1 && !/\d/.test(cell)) return "";
    report.rejected += 1;
    if (report.rejectedLines.length < MAX_REPORTED) {
      report.rejectedLines.push({ line: lineNumber, text: cell.slice(0, MAX_REPORTED_TEXT) });
    }
    return "";
  };
  for await (const chunk of bytes) {
    const lines = (rest + decoder.write(chunk)).split("\n");
    rest = lines.pop() ?? "";
    let text = "";
    for (const line of lines) text += read(line);
    if (text) yield text;
  }
  const last = read(rest + decoder.end());
  if (last) yield last;
}

/**
 * Loads a register from its file and swaps it in, all or nothing; answers the load's report.
 * `fileDate` (YYYY-MM-DD) is the register's own date, from which its screenings' 28 days run.
 */
export async function loadRegister(
  pool: Pool,
  register: RegisterName,
  fileDate: string,
  fileName: string,
  input: Readable,
): Promise<RegisterReport> {
  const report: RegisterReport = {
    register,
    fileDate,
    fileName,
    lines: 0,
    loaded: 0,
    rejected: 0,
    rejectedLines: [],
  };
  // Table names from the fixed register names, never from input.
  const table = `${register}_numbers`;
  const cleanup: string[] = [];
  // An upload cut off while the load waits for its lock fails the load when the copy reads it;
  // until then this listener keeps its error from ending the process.
  input.on("error", () => {});
  try {
    await pgTransaction(pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
        `phone register ${register}`,
      ]);
      await client.query(`CREATE TABLE "${table}_next" (e164 text NOT NULL)`);
      await pipeline(
        Readable.from(copyText(registerBytes(input, cleanup), report)),
        client.query(copyFrom(`COPY "${table}_next" FROM STDIN`)),
      );
      if (report.loaded === 0) {
        const message = "The file holds no valid UK number; the previous register stays in force";
        throw badRequest(message, { file: message });
      }
      await client.query("SET LOCAL maintenance_work_mem = '256MB'");
      await client.query(`CREATE INDEX "${table}_next_e164_idx" ON "${table}_next" (e164)`);
      await client.query(`DROP TABLE "${table}"`);
      await client.query(`ALTER TABLE "${table}_next" RENAME TO "${table}"`);
      await client.query(`ALTER INDEX "${table}_next_e164_idx" RENAME TO "${table}_e164_idx"`);
      await client.query(
        `INSERT INTO phone_registers (register, file_date, file_name, numbers, rejected, loaded_at)
         VALUES ($1, $2, $3, $4, $5, now())
         ON CONFLICT (register) DO UPDATE SET file_date = EXCLUDED.file_date, file_name = EXCLUDED.file_name,
           numbers = EXCLUDED.numbers, rejected = EXCLUDED.rejected, loaded_at = EXCLUDED.loaded_at`,
        [register, fileDate, fileName, report.loaded, report.rejected],
      );
    });
  } finally {
    await Promise.all(cleanup.map((folder) => rm(folder, { recursive: true, force: true })));
  }
  return report;
}
