// A process's budget of bytes a second for one kind of work (a token bucket holding at most one
// second's worth): lingering reads of refused bodies (lib/http/early-answer.mjs), attachments
// written to the database (lib/custom-requests/staged-files.ts). A client sending as fast as the
// line allows then costs the thread and the database that rate, not the line's. Plain JavaScript
// because the custom server loads it without a build.

/** Returns `spend(bytes)`: takes `bytes` from the budget and answers how long (ms) to wait before the next. */
export function byteBudget(bytesPerSecond) {
  let allowance = bytesPerSecond;
  let refilledAt = performance.now();
  return (bytes) => {
    const now = performance.now();
    allowance = Math.min(bytesPerSecond, allowance + ((now - refilledAt) * bytesPerSecond) / 1000);
    refilledAt = now;
    allowance -= bytes;
    return allowance >= 0 ? 0 : (-allowance * 1000) / bytesPerSecond;
  };
}
