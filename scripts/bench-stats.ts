// Shared by the benchmark scripts.

/** The middle value of the runs (the upper one of the two middles for an even count). */
export function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}
