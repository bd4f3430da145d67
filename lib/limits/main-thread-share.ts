import "server-only";

// Downloads write their files on the main thread, the one that also answers every page and health
// check. While other requests are in progress, all downloads together may use at most SHARE of it
// for their rows: each piece of work is booked, and once the bookings run ahead of that share, the
// next piece waits until they are even again. Waiting holds the download's COPY back in PostgreSQL
// too, so its database CPU and its compression follow. With nothing else in progress, downloads
// run at full speed.

/** The most of the main thread that downloads' rows may take while other requests are in progress. */
export const SHARE = 0.1;
/** Work done at once before any waiting. */
const BURST_MS = 10;
/** Downloads give way for this long after another request was last seen in progress. */
const GIVE_WAY_MS = 500;

/** The custom server's count of requests in progress in this process (scripts/server.mjs). */
const server = globalThis as { __leadmarketRequestsInProgress?: { count: number } };
/** Downloads in progress: the requests that give way, not those given way to. */
let downloads = 0;
/** When a request other than a download was last seen in progress. */
let othersSeenAt = -Infinity;
/** The time (performance.now()) up to which the work booked so far is paid for at SHARE. */
let paidUntil = 0;

/** Counts a download in progress until the returned function is called (once). */
export function downloadStarted(): () => void {
  downloads += 1;
  return () => {
    downloads -= 1;
  };
}

/** Books `ms` of a download's main-thread work; answers how long it should wait before its next piece. */
export function bookMainThread(ms: number): number {
  const now = performance.now();
  if ((server.__leadmarketRequestsInProgress?.count ?? 0) > downloads) othersSeenAt = now;
  if (now - othersSeenAt > GIVE_WAY_MS) {
    paidUntil = now;
    return 0;
  }
  paidUntil = Math.max(paidUntil, now - BURST_MS / SHARE) + ms / SHARE;
  return Math.max(0, paidUntil - now);
}
