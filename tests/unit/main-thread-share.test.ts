// Downloads' share of the main thread (lib/limits/main-thread-share.ts): what a download waits
// after each piece of work, beside other requests and without them, on a fake clock.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { bookMainThread, downloadStarted, SHARE } from "@/lib/limits/main-thread-share";

const server = globalThis as { __leadmarketRequestsInProgress?: { count: number } };

// One clock for the whole file: the books run on performance.now().
beforeAll(() => vi.useFakeTimers({ toFake: ["performance"] }));
afterEach(() => {
  delete server.__leadmarketRequestsInProgress;
});
afterAll(() => vi.useRealTimers());

/** Books `pieces` pieces of `ms` each, back to back as a download would; answers the time taken. */
function download(pieces: number, ms: number): number {
  const started = performance.now();
  for (let piece = 0; piece < pieces; piece++) {
    vi.advanceTimersByTime(ms);
    vi.advanceTimersByTime(bookMainThread(ms));
  }
  return performance.now() - started;
}

describe("downloads' share of the main thread", () => {
  it("is all of it with no other request in progress, or only other downloads", () => {
    const done = downloadStarted();
    server.__leadmarketRequestsInProgress = { count: 1 };
    expect(download(100, 5)).toBe(500);
    const other = downloadStarted();
    server.__leadmarketRequestsInProgress = { count: 2 };
    expect(download(100, 5)).toBe(500);
    other();
    done();
  });

  it("is SHARE beside another request, for all downloads together, and again all once it is gone for 0.5 s", () => {
    const done = [downloadStarted(), downloadStarted()];
    server.__leadmarketRequestsInProgress = { count: 3 };
    // Two downloads taking turns: 1,000 ms of work in all take 1,000 / SHARE ms, less the burst.
    const taken = download(200, 5);
    expect(taken).toBeGreaterThanOrEqual(1000 / SHARE - 100);
    expect(taken).toBeLessThanOrEqual(1000 / SHARE);
    server.__leadmarketRequestsInProgress = { count: 2 };
    // Still giving way for 0.5 s after the other request was last seen, then at full speed.
    expect(download(1, 5)).toBeGreaterThan(5);
    vi.advanceTimersByTime(600);
    expect(download(100, 5)).toBe(500);
    for (const end of done) end();
  });
});
