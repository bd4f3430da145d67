import "server-only";
import bcrypt from "bcryptjs";
import { workerTask } from "@/lib/off-thread";

/** A password to hash at `cost`, or to compare with `hash`. */
export type PasswordTask = { password: string; cost: number } | { password: string; hash: string };

// A worker thread's entry (lib/off-thread.ts): bcryptjs is plain JavaScript, so its work runs here
// and a burst of sign-in attempts never holds the main thread's pages and health checks.
export default workerTask((task: PasswordTask): Promise<string | boolean> =>
  "hash" in task ? bcrypt.compare(task.password, task.hash) : bcrypt.hash(task.password, task.cost),
);
