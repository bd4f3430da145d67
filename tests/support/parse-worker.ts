import { readlinkSync } from "node:fs";
import { getPriority } from "node:os";
import { badRequest } from "@/lib/errors";
import { workerTask } from "@/lib/off-thread";

// A worker entry for tests/integration/off-thread.test.ts: "spin" never returns (a file whose
// reading never ends), "refuse" is refused as a bad file is, "nice" answers the worker thread's
// nice value (Linux); anything else (text, bytes or a list of blocks) answers its length.
export default workerTask((input: string | Uint8Array | Uint8Array[]): number => {
  if (input === "spin") for (;;);
  if (input === "refuse") throw badRequest("Refused", { file: "Refused" });
  if (input === "nice") return getPriority(Number(readlinkSync("/proc/thread-self").split("/").pop()));
  return input.length;
});
