import "server-only";

// Downloads write their files on the main thread, the one that also answers every page and health
// check. While other requests are in progress, all downloads together may use at most SHARE of it:
// each piece of work is booked, and once the bookings run ahead of that share, the next piece
// waits until they are even again. Waiting holds the download's COPY back in PostgreSQL too, so
// its database CPU and its compression follow. With nothing else in progress, downloads run at
// full speed.

/** The most of the main thread that downloads may take while other requests are in progress. */
export const SHARE = 0.1;
/** Work done at once before any waiting. */
export const BURST_MS = 10;
/** Downloads give way for this long after another request was last seen in progress. */
const GIVE_WAY_MS = 500;

/** The custom server's count of requests in progress in this process (scripts/server.mjs). */
const server = globalThis as { __leadmarketRequestsInProgress?: { count: number } };

type Books = {
  /** Downloads in progress: the requests that give way, not those given way to. */
  downloads: number;
  /** When a request other than a download was last seen in progress. */
  othersSeenAt: number;
  /** The time (performance.now()) up to which the work booked so far is paid for at SHARE. */
  paidUntil: number;
};
// On globalThis: one set of books for the process, however many route bundles hold this module.
const store = globalThis as { __leadmarketMainThreadShare?: Books };
const books = (store.__leadmarketMainThreadShare ??= { downloads: 0, othersSeenAt: -Infinity, paidUntil: 0 });

/** Counts a download in progress until the returned function is called (once). */
export function downloadStarted(): () => void {
  books.downloads += 1;
  return () => {
    books.downloads -= 1;
  };
}

/** Books `ms` of a download's main-thread work; answers how long it should wait before its next piece. */
export function bookMainThread(ms: number): number {
  const now = performance.now();
  if ((server.__leadmarketRequestsInProgress?.count ?? 0) > books.downloads) books.othersSeenAt = now;
  if (now - books.othersSeenAt > GIVE_WAY_MS) {
    books.paidUntil = now;
    return 0;
  }
  books.paidUntil = Math.max(books.paidUntil, now - BURST_MS / SHARE) + ms / SHARE;
  return Math.max(0, books.paidUntil - now);
}
