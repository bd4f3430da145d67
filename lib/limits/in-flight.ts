import "server-only";

// What each key (a client address, an order) has in progress in this process: uploads, downloads,
// submissions. A place taken is given back exactly once by whoever took it.
export class InFlight {
  private readonly counts = new Map<string, number>();

  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  /** Takes a place for `key` unless it holds `max` already; answers whether it did. */
  take(key: string, max = Infinity): boolean {
    const count = this.count(key);
    if (count >= max) return false;
    this.counts.set(key, count + 1);
    return true;
  }

  give(key: string): void {
    const left = this.count(key) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
  }
}
