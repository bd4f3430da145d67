// `npm run admin:reset-password`: sets a new admin password and signs out every session. The new
// password comes from ADMIN_PASSWORD, or is asked for (twice, not echoed) on a terminal. Uses
// DATABASE_URL, or the embedded database in ./.data when it is unset (stop `npm start` first:
// one PostgreSQL at a time can run on that folder).
import { existsSync } from "node:fs";
import { stdin, stdout } from "node:process";
import { passwordProblem, resetAdminPassword } from "@/lib/auth/admin-account";
import { closeDatabase } from "@/lib/db";
import { applyDefaults, env } from "@/lib/env";
import { loadSecrets, startEmbeddedDatabase, type EmbeddedDatabase } from "./embedded";

if (existsSync(".env")) process.loadEnvFile(".env");

/** Reads a line from the terminal without echoing it. */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    stdout.write(question);
    let answer = "";
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding("utf8");
    const onData = (key: string) => {
      for (const char of key) {
        if (char === "\r" || char === "\n") {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off("data", onData);
          stdout.write("\n");
          return resolve(answer);
        }
        if (char === "\u0003") {
          stdin.setRawMode(false);
          return reject(new Error("Cancelled"));
        }
        if (char === "\u007f") answer = answer.slice(0, -1);
        else answer += char;
      }
    };
    stdin.on("data", onData);
  });
}

async function newPassword(): Promise<string> {
  const fromEnv = env().ADMIN_PASSWORD;
  if (fromEnv) return fromEnv;
  if (!stdin.isTTY) throw new Error("Set ADMIN_PASSWORD, or run this in a terminal to be asked for it.");
  for (;;) {
    const first = await askHidden("New admin password: ");
    const problem = passwordProblem(first);
    if (problem) {
      console.error(problem);
      continue;
    }
    if ((await askHidden("Repeat it: ")) === first) return first;
    console.error("The two passwords differ; try again.");
  }
}

let database: EmbeddedDatabase | undefined;
let code = 0;
try {
  const password = await newPassword();
  if (!env().DATABASE_URL) {
    database = await startEmbeddedDatabase(await loadSecrets()).catch((error: Error) => {
      throw new Error(
        `Could not open the embedded database (is npm start running? Stop it first): ${error.message}`,
      );
    });
    applyDefaults({ DATABASE_URL: database.url });
  }
  try {
    const email = await resetAdminPassword(password);
    console.log(`Password changed for ${email}. Every admin session has been signed out.`);
  } finally {
    await closeDatabase();
  }
} catch (error) {
  console.error((error as Error).message);
  code = 1;
}
await database?.stop().catch(() => undefined);
process.exit(code);
