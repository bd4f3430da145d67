// The semaphore of lib/concurrency.ts: a released slot goes to the first caller in line, and a
// caller still in line after maxWaitMs gets the busy error without ever running.
import { expect, it } from "vitest";
import { Limiter } from "@/lib/concurrency";

it("hands a released slot to the first in line, and drops a caller that waited past maxWaitMs", async () => {
  const limiter = new Limiter(1, 2, () => new Error("busy"), 100);
  let release = () => {};
  const first = limiter.run(() => new Promise<string>((resolve) => (release = () => resolve("first"))));
  const ran: string[] = [];
  const late = limiter.run(async () => ran.push("late"));
  await expect(late).rejects.toThrow("busy");
  expect(limiter.full).toBe(false);
  const next = limiter.run(async () => "next");
  release();
  expect(await Promise.all([first, next])).toEqual(["first", "next"]);
  expect(ran).toEqual([]);
  expect(limiter.idle).toBe(true);
});
