import "server-only";
import type { Readable } from "node:stream";
import { BusyError } from "@/lib/concurrency";
import { badRequest, tooManyRequests, type AppError, type FileTooLargeError } from "@/lib/errors";
import { InFlight } from "@/lib/http/in-flight.mjs";

// Uploads received at once by this process, in one pool per kind: slow uploads of one kind (lists
// sent from many addresses) never take the slots of another (the admin's import). Each is streamed
// to its storage a chunk at a time, so a slot costs little memory; the caps keep a burst of
// visitors (or one visitor opening many) from taking every database connection and socket. A
// trickling client is cut off by the rate floor, the idle timeout and the deadline
// (lib/api/upload.ts), so it holds its slot briefly.
export type UploadPool = "imports" | "customRequests" | "claims" | "lists";
export const UPLOAD_POOLS: Record<UploadPool, number> = {
  imports: 4,
  customRequests: 16,
  claims: 8,
  lists: 16,
};
/** Per address and pool. */
export const MAX_UPLOADS_PER_ADDRESS = 2;

const active: Record<UploadPool, number> = { imports: 0, customRequests: 0, claims: 0, lists: 0 };
const perAddress = new InFlight();

/**
 * Takes a slot of `pool` for `clientIp` and answers its release (idempotent): 503 with Retry-After
 * when the pool is full, 429 when the address already sends its two of this kind.
 */
export function takeUploadSlot(pool: UploadPool, clientIp: string): () => void {
  if (active[pool] >= UPLOAD_POOLS[pool]) {
    throw new BusyError("The server is receiving many uploads. Please try again in a moment.", 10);
  }
  const key = `${pool} ${clientIp}`;
  if (!perAddress.take(key, MAX_UPLOADS_PER_ADDRESS)) {
    throw tooManyRequests(
      `At most ${MAX_UPLOADS_PER_ADDRESS} uploads from one address at a time. Please wait for one to finish.`,
      10,
    );
  }
  active[pool] += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    active[pool] -= 1;
    perAddress.give(key);
  };
}

/** How an upload route bounds its body (lib/api/upload.ts applies it). */
export type UploadLimits = {
  /** Whose slots the upload takes. */
  pool: UploadPool;
  /** The whole multipart body, framing included, counted on the bytes as they arrive. */
  maxBytes: number;
  /** Each file. */
  maxFileBytes: number;
  files: number;
  fields?: number;
  fieldBytes?: number;
  /** The JSON alternative's bound (64 KB unless given). */
  jsonBytes?: number;
  /** From the slot's taking to the body's end. */
  deadlineSeconds: number;
  /** The refusal of a body over `maxBytes`, and of a file over `maxFileBytes`. */
  tooLarge: () => FileTooLargeError;
  fileTooLarge: (fileName: string) => FileTooLargeError;
  /** The refusal of a body neither JSON nor multipart. */
  unsupported: () => AppError;
};

/** One part of a multipart body as it arrives: a text field, or a file to read (or leave) now. */
export type FormPart = { name: string; value: string } | { name: string; fileName: string; file: Readable };

/** A request body as domain code reads it: a JSON value, or the multipart parts as they arrive. */
export type FormBody = { json: unknown } | { parts: AsyncIterable<FormPart> };

/**
 * Hands the first file part named `field` to `consume` and answers what it answers; other parts
 * are skipped. 400 with `missing` (as the field's error) when no such file arrives.
 */
export async function consumeFile<T>(
  body: FormBody,
  field: string,
  missing: string,
  consume: (file: Readable) => Promise<T>,
): Promise<T> {
  if (!("parts" in body)) {
    throw badRequest(`Upload the file as multipart/form-data in the field "${field}"`, { [field]: missing });
  }
  for await (const part of body.parts) {
    // Awaited here: leaving the loop stops the parts, which must wait for the file to be read.
    if ("file" in part && part.name === field) return await consume(part.file);
  }
  throw badRequest("No file was uploaded", { [field]: missing });
}

/** fileBlocks() copies the pieces into blocks of this size as they arrive. */
const BLOCK_BYTES = 1024 * 1024;

/**
 * A file's bytes as they arrive, in blocks of 1 MB (the last one shorter), for a worker thread to
 * join (runOffThread moves each block there without a copy). Not `node:stream/consumers`'
 * buffer(): it collects the chunks into a Blob and reads them back in one run of microtasks, which
 * held the event loop for 200-400 ms on a 10 MB file. Nor one Buffer.concat() here: one copy of
 * 10 MB into fresh memory held it for 30-110 ms under load. Each piece (as small as a socket's
 * read) is copied on arrival.
 */
export async function fileBlocks(file: Readable): Promise<Buffer[]> {
  const blocks: Buffer[] = [];
  let block = Buffer.alloc(0);
  let used = 0;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    for (let offset = 0; offset < chunk.length;) {
      if (used === block.length) {
        if (used > 0) blocks.push(block);
        block = Buffer.allocUnsafe(BLOCK_BYTES);
        used = 0;
      }
      const copied = chunk.copy(block, used, offset);
      used += copied;
      offset += copied;
    }
  }
  blocks.push(block.subarray(0, used));
  return blocks;
}
