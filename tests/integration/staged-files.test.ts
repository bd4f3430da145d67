// Attachments are written to the database, and assembled there, within one byte budget for the
// whole process (STAGED_BYTES_PER_SECOND): the database's work per byte would otherwise follow the
// rate the clients send at, and four visitors with 50 MB requests held most of its CPU.
import { Readable } from "node:stream";
import { afterAll, expect, it } from "vitest";

const { STAGED_BYTES_PER_SECOND, awaitAssemblyRoom, discardStagedFiles, stageFile } =
  await import("@/lib/custom-requests/staged-files");
const { closeDatabase, pool } = await import("@/lib/db");

afterAll(() => closeDatabase());

/** A CSV of `bytes` sent in 64 KB chunks, as a request's file stream brings it. */
function csvStream(bytes: number): Readable {
  const chunk = Buffer.alloc(64 * 1024, "lead,company\n");
  return Readable.from(
    (function* () {
      for (let sent = 0; sent < bytes; sent += chunk.length) yield chunk;
    })(),
  );
}

it("writes and assembles the files of all uploads together within STAGED_BYTES_PER_SECOND", async () => {
  const size = (STAGED_BYTES_PER_SECOND * 3) / 4;
  const seconds = (bytes: number) => (bytes * 1000) / STAGED_BYTES_PER_SECOND;
  const started = performance.now();
  const staged = await Promise.all([
    stageFile("a.csv", csvStream(size)),
    stageFile("b.csv", csvStream(size)),
  ]);
  const stagedAt = performance.now();
  // One second's worth goes at once; the rest waits for the budget.
  expect(stagedAt - started).toBeGreaterThan(seconds(2 * size - STAGED_BYTES_PER_SECOND) - 100);
  const files = staged.flatMap((file) => ("uploadId" in file ? [file] : []));
  // Their assembly counts them again: the budget is spent, so it waits for their whole size, less
  // what the budget regained while the last chunks were written and checked (half, on a slow day).
  await awaitAssemblyRoom(files);
  expect(performance.now() - stagedAt).toBeGreaterThan(seconds(2 * size) / 2);

  expect(files.map((file) => file.size)).toEqual([size, size]);
  const ids = files.map((file) => file.uploadId);
  const { rows } = await pool().query<{ bytes: string }>(
    "SELECT sum(length(data))::text AS bytes FROM upload_chunks WHERE upload_id = ANY($1::uuid[])",
    [ids],
  );
  expect(Number(rows[0].bytes)).toBe(2 * size);
  await discardStagedFiles(ids);
});
