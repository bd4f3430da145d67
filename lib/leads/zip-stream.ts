import "server-only";
import { crc32, constants, createDeflateRaw, type ZlibOptions } from "node:zlib";
import type { TransformOptions, Writable } from "node:stream";

// A minimal streaming ZIP writer, enough for an XLSX package: small entries stored whole, one large
// entry deflated as it is produced (its sizes and CRC follow it in a data descriptor), then the
// central directory. No ZIP64: an entry stays far below 4 GB.

type Entry = {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  deflated: boolean;
};

const DATA_DESCRIPTOR_FLAG = 0x0008;

function dosDateTime(date: Date): { time: number; day: number } {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    day: ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/** Resolves when the stream wants more data, or when it was closed (the reader went away). */
export function drainedOrClosed(stream: Writable): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
  });
}

export class ZipWriter {
  private readonly entries: Entry[] = [];
  private offset = 0;
  private readonly stamp = dosDateTime(new Date());

  constructor(private readonly output: Writable) {}

  private write(chunk: Buffer): void {
    this.offset += chunk.length;
    this.output.write(chunk);
  }

  private localHeader(entry: Entry): Buffer {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    // A deflated entry's CRC and sizes are not known yet: zero here, in the descriptor after it.
    this.writeEntryFields(header, 6, entry);
    return Buffer.concat([header, entry.name]);
  }

  /**
   * The fields a local header and a central directory record share, in the same order (flags,
   * method, time, date, CRC, sizes, name length), starting at `at`.
   */
  private writeEntryFields(header: Buffer, at: number, entry: Entry): void {
    header.writeUInt16LE(entry.deflated ? DATA_DESCRIPTOR_FLAG : 0, at);
    header.writeUInt16LE(entry.deflated ? 8 : 0, at + 2);
    header.writeUInt16LE(this.stamp.time, at + 4);
    header.writeUInt16LE(this.stamp.day, at + 6);
    header.writeUInt32LE(entry.crc, at + 8);
    header.writeUInt32LE(entry.compressed, at + 12);
    header.writeUInt32LE(entry.size, at + 16);
    header.writeUInt16LE(entry.name.length, at + 20);
  }

  /** A small entry, stored uncompressed. */
  addStored(name: string, text: string): void {
    const data = Buffer.from(text);
    const entry: Entry = {
      name: Buffer.from(name),
      crc: crc32(data),
      compressed: data.length,
      size: data.length,
      offset: this.offset,
      deflated: false,
    };
    this.entries.push(entry);
    this.write(this.localHeader(entry));
    this.write(data);
  }

  /**
   * A large entry, deflated as `parts` yields its text or bytes. Waits for the output to drain between parts,
   * so a slow reader holds back the producer rather than filling memory.
   */
  async addDeflated(name: string, parts: AsyncIterable<string | Buffer>): Promise<void> {
    const entry: Entry = {
      name: Buffer.from(name),
      crc: 0,
      compressed: 0,
      size: 0,
      offset: this.offset,
      deflated: true,
    };
    this.entries.push(entry);
    this.write(this.localHeader(entry));
    // The fastest level: the sheet's XML is repetitive, so it already shrinks about tenfold, and the
    // higher levels cost several times the CPU for a few percent less.
    // Compression runs on another thread: a megabyte queued for it lets the next part be written
    // meanwhile, rather than each waiting for the one before to be compressed; it hands back its
    // output in larger pieces than the default 16 KB, each piece costing a trip between threads.
    const options: ZlibOptions & TransformOptions = {
      level: constants.Z_BEST_SPEED,
      chunkSize: 256 * 1024,
      writableHighWaterMark: 1024 * 1024,
    };
    const deflate = createDeflateRaw(options);
    deflate.on("data", (chunk: Buffer) => {
      entry.compressed += chunk.length;
      this.write(chunk);
    });
    const ended = new Promise<void>((resolve, reject) => {
      deflate.on("end", resolve);
      deflate.on("error", reject);
    });
    for await (const part of parts) {
      if (this.output.destroyed) break;
      const data = typeof part === "string" ? Buffer.from(part) : part;
      entry.crc = crc32(data, entry.crc);
      entry.size += data.length;
      if (!deflate.write(data)) await new Promise((resolve) => deflate.once("drain", resolve));
      await drainedOrClosed(this.output);
    }
    deflate.end();
    await ended;
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc, 4);
    descriptor.writeUInt32LE(entry.compressed, 8);
    descriptor.writeUInt32LE(entry.size, 12);
    this.write(descriptor);
  }

  /** Writes the central directory and ends the output. */
  finish(): void {
    const start = this.offset;
    for (const entry of this.entries) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(20, 6);
      this.writeEntryFields(header, 8, entry);
      header.writeUInt32LE(entry.offset, 42);
      this.write(Buffer.concat([header, entry.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    this.write(end);
    this.output.end();
  }
}
