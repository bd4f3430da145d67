export function byteBudget(bytesPerSecond: number): (bytes: number) => number;
