export class InFlight {
  count(key: string): number;
  /** Takes a place for `key` unless it holds `max` already; answers whether it did. */
  take(key: string, max?: number): boolean;
  give(key: string): void;
}
