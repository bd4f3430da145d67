// Parsing on a worker thread (lib/off-thread.ts): a file that would take longer than the deadline
// ends in the caller's refusal, the worker is replaced, and a refusal thrown on the worker reaches
// the caller as the AppError it was; a file's bytes are moved to the worker, not copied; the worker
// thread gives way to the main thread (a higher nice value). The worker loads its TypeScript entry
// through tsx.
import { getPriority } from "node:os";
import { describe, expect, it } from "vitest";
import { AppError, tooLarge } from "@/lib/errors";
import { runOffThread } from "@/lib/off-thread";

const ENTRY = "tests/support/parse-worker.ts";
const tooComplex = () => tooLarge("Too complex");

describe("parsing off the main thread", () => {
  it("answers what the worker answers", async () => {
    expect(await runOffThread<string, number>(ENTRY, "four", tooComplex)).toBe(4);
  });

  it("moves bytes that hold their whole memory, and copies a small Buffer that shares Node's pool", async () => {
    const file = Buffer.alloc(1024 * 1024, 1);
    expect(await runOffThread<Uint8Array, number>(ENTRY, file, tooComplex)).toBe(1024 * 1024);
    expect(file.buffer.byteLength).toBe(0);

    // An upload's blocks, each moved.
    const blocks = [Buffer.alloc(1024 * 1024, 1), Buffer.alloc(1024 * 1024, 2)];
    expect(await runOffThread<Uint8Array[], number>(ENTRY, blocks, tooComplex)).toBe(2);
    expect(blocks.map((block) => block.buffer.byteLength)).toEqual([0, 0]);

    const small = Buffer.from("pooled");
    expect(small.buffer.byteLength).toBeGreaterThan(small.byteLength);
    expect(await runOffThread<Uint8Array, number>(ENTRY, small, tooComplex)).toBe(6);
    expect(small.toString()).toBe("pooled");
  });

  it("runs the worker at a lower priority than the main thread", async () => {
    expect(await runOffThread<string, number>(ENTRY, "nice", tooComplex)).toBe(10);
    expect(getPriority()).toBe(0);
  });

  it("rethrows a refusal with its status and field errors", async () => {
    const refused = await runOffThread(ENTRY, "refuse", tooComplex).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 400, message: "Refused", errors: { file: "Refused" } });
  });

  it("stops a parse that outlives the deadline, then parses the next file", async () => {
    // The main thread is free meanwhile: a timer set now fires while the worker spins.
    let ticks = 0;
    const ticking = setInterval(() => (ticks += 1), 100);
    const refused = await runOffThread(ENTRY, "spin", tooComplex).catch((error: unknown) => error);
    clearInterval(ticking);
    expect(refused).toMatchObject({ status: 413, message: "Too complex" });
    expect(ticks).toBeGreaterThan(0);
    expect(await runOffThread<string, number>(ENTRY, "again", tooComplex)).toBe(5);
    // On a loaded machine the worker's 2 s of CPU time may take up to its 20 s on the clock.
  }, 60_000);
});
