import "server-only";
import { workerTask } from "@/lib/off-thread";
import { listEntries, type ListEntries } from "@/lib/suppression/entries";
import { listRows } from "@/lib/suppression/read-file";

// A worker thread's entry (lib/off-thread.ts): an uploaded list's bytes (its blocks, joined here)
// to its entries.
export default workerTask((blocks: Uint8Array[]): Promise<ListEntries> =>
  listEntries(listRows(Buffer.concat(blocks))),
);
