// What each key (a client address, an order) has in progress in this process: uploads, downloads,
// submissions, and the custom server's requests per address (lib/http/in-flight-limit.mjs). A place
// taken is given back exactly once by whoever took it. Plain JavaScript because the custom server
// loads it without a build.
export class InFlight {
  #counts = new Map();

  count(key) {
    return this.#counts.get(key) ?? 0;
  }

  /** Takes a place for `key` unless it holds `max` already; answers whether it did. */
  take(key, max = Infinity) {
    const count = this.count(key);
    if (count >= max) return false;
    this.#counts.set(key, count + 1);
    return true;
  }

  give(key) {
    const left = this.count(key) - 1;
    if (left > 0) this.#counts.set(key, left);
    else this.#counts.delete(key);
  }
}
