// `npm run reset`: deletes the embedded demo (the data folder, and for a root start its cluster
// under /var/lib/leadmarket); the next `npm start` creates a fresh one. A database named by
// DATABASE_URL is never touched.
import { existsSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { userInfo } from "node:os";
import path from "node:path";
import { dataDir, rootHome } from "./embedded";

if (existsSync(".env")) process.loadEnvFile(".env");

/** The pid of a PostgreSQL running on `cluster`, if any. */
function runningPostgres(cluster: string): number | null {
  const pid = Number(readFileSync(path.join(cluster, "postmaster.pid"), "utf8").split("\n")[0]);
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

const folders = [dataDir()];
if (userInfo().uid === 0) folders.push(await rootHome());
for (const folder of folders) {
  const pid = existsSync(path.join(folder, "pg", "postmaster.pid"))
    ? runningPostgres(path.join(folder, "pg"))
    : null;
  if (pid) {
    console.error(
      `LeadMarket's embedded database is running (pid ${pid}): stop \`npm start\` first, then reset.`,
    );
    process.exit(1);
  }
}
const existing = folders.filter((folder) => existsSync(folder));
for (const folder of existing) await rm(folder, { recursive: true, force: true });
console.log(
  existing.length
    ? `Deleted the demo data (${existing.join(", ")}): \`npm start\` creates a fresh demo.`
    : `Nothing to reset (${dataDir()} does not exist): \`npm start\` creates a fresh demo.`,
);
