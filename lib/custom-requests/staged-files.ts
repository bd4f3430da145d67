import "server-only";
import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { pool, type Tx } from "@/lib/db";
import { checkFile, type FileProblem } from "@/lib/custom-requests/files";
import { byteBudget } from "@/lib/http/byte-budget.mjs";

// Attachments are written to PostgreSQL a chunk at a time as they arrive (upload_chunks), so a
// process holds at most one chunk per upload however large or slow the files are. The request's
// transaction then assembles each file into its attachments row in one statement, inside the
// database, and drops the chunks; chunks of an upload that never got stored are dropped at once,
// or by the upkeep when the process died first.

const CHUNK_BYTES = 256 * 1024;
// What the content check needs: a file's head (magic bytes, a CSV's first 64 KB) and its tail (a
// zip's central directory names every part of an Office file).
const SAMPLE_BYTES = 64 * 1024;
const ORPHAN_HOURS = 24;
/**
 * The bytes of attachments the database takes in a second for all uploads of the process, each
 * file's counted twice: as it arrives, and when it is assembled. The database spends about 10 ms
 * of CPU a MB on the two (more than the upload's parsing costs the server): four visitors sending
 * 50 MB requests at the line's rate held most of a 2-core machine's database, and every page
 * waited on it. A file past the budget is read no further until it has room (the client waits, its
 * slot and deadline counting), and a request's files wait for room before they are assembled.
 */
export const STAGED_BYTES_PER_SECOND = 24 * 1024 * 1024;
const spend = byteBudget(STAGED_BYTES_PER_SECOND);

/** A checked file whose bytes wait in upload_chunks under `uploadId`. */
export type CheckedFile = { fileName: string; contentType: string; size: number; uploadId: string };

/** Drops the chunks of files that will not be stored. */
export async function discardStagedFiles(uploadIds: string[]): Promise<void> {
  if (uploadIds.length === 0) return;
  await pool().query("DELETE FROM upload_chunks WHERE upload_id = ANY($1::uuid[])", [uploadIds]);
}

/**
 * Writes one received file to upload_chunks as it arrives and checks it; answers the checked file,
 * or the reason it is refused (its chunks then dropped). A failed stream (size limit, timeout,
 * broken body) drops the chunks and throws its error.
 */
export async function stageFile(rawName: string, file: Readable): Promise<CheckedFile | FileProblem> {
  const uploadId = randomUUID();
  let head = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let size = 0;
  let seq = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const data = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await pool().query("INSERT INTO upload_chunks (upload_id, seq, data) VALUES ($1, $2, $3)", [
      uploadId,
      seq++,
      data,
    ]);
  };
  try {
    for await (const chunk of file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (head.length < SAMPLE_BYTES)
        head = Buffer.concat([head, chunk.subarray(0, SAMPLE_BYTES - head.length)]);
      tail = Buffer.concat([tail, chunk]).subarray(-SAMPLE_BYTES);
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= CHUNK_BYTES) await flush();
      const wait = spend(chunk.length);
      if (wait > 0) await sleep(wait);
    }
    await flush();
  } catch (error) {
    await discardStagedFiles([uploadId]);
    throw error;
  }
  const checked = checkFile(rawName, size <= SAMPLE_BYTES ? head : Buffer.concat([head, tail]));
  if ("reason" in checked) {
    await discardStagedFiles([uploadId]);
    return checked;
  }
  return { fileName: checked.fileName, contentType: checked.contentType, size, uploadId };
}

/** Waits until the budget has room for assembling `files` (outside any transaction). */
export async function awaitAssemblyRoom(files: CheckedFile[]): Promise<void> {
  const wait = spend(files.reduce((sum, file) => sum + file.size, 0));
  if (wait > 0) await sleep(wait);
}

/** Assembles each staged file into an attachments row of the request, then drops its chunks. */
export async function attachStagedFiles(tx: Tx, requestId: string, files: CheckedFile[]): Promise<void> {
  for (const file of files) {
    await tx.$executeRaw`
      INSERT INTO attachments (request_id, file_name, content_type, size, data)
      SELECT ${requestId}::uuid, ${file.fileName}, ${file.contentType}, ${file.size},
             string_agg(data, ''::bytea ORDER BY seq)
        FROM upload_chunks WHERE upload_id = ${file.uploadId}::uuid`;
    await tx.$executeRaw`DELETE FROM upload_chunks WHERE upload_id = ${file.uploadId}::uuid`;
  }
}

/** Drops chunks left by uploads a process never finished (it stopped while receiving them). */
export async function pruneStagedFiles(): Promise<void> {
  await pool().query(
    `DELETE FROM upload_chunks WHERE created_at < now() - make_interval(hours => ${ORPHAN_HOURS})`,
  );
}
