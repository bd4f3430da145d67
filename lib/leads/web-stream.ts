import "server-only";
import type { Readable } from "node:stream";

/**
 * A Response body reading `source`. Unlike Node 20's Readable.toWeb, nothing is handed to the body
 * once its reader has gone (that threw "Controller is already closed" outside any handler when a
 * buyer aborted a download), and cancelling it destroys `source`. With `idleMs`, a reader that
 * takes nothing for that long while output waits for it is dropped: `source` is destroyed (freeing
 * whatever feeds it) and the body ends in error, which cuts the response.
 */
export function toWebStream(source: Readable, idleMs?: number): ReadableStream<Uint8Array> {
  let open = true;
  let idle: NodeJS.Timeout | undefined;
  const settle = () => {
    open = false;
    clearTimeout(idle);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      source.pause();
      source.on("data", (chunk: Buffer) => {
        if (!open) return;
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) > 0) return;
        source.pause();
        if (idleMs) {
          idle = setTimeout(() => {
            settle();
            source.destroy();
            controller.error(new Error(`The reader took nothing for ${idleMs / 1000} s`));
          }, idleMs);
        }
      });
      source.once("end", () => {
        if (!open) return;
        settle();
        controller.close();
      });
      // An error, or destroyed without one before its end: either way the body is incomplete.
      source.once("close", () => {
        if (!open) return;
        settle();
        controller.error(source.errored ?? new Error("The file ended early"));
      });
      source.on("error", () => undefined);
    },
    pull() {
      clearTimeout(idle);
      source.resume();
    },
    cancel() {
      settle();
      source.destroy();
    },
  });
}
