// Resetting the embedded demo: deleting the data folder (or `npm run reset`) gives a fresh demo on
// the next start, as root too, where the cluster lives outside the data folder and outlives it;
// a data folder whose password the cluster refuses gets one line saying what to do.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { userInfo } from "node:os";
import path from "node:path";
import { Client } from "pg";
import { afterAll, describe, expect, it } from "vitest";

const parent = await mkdtemp("/tmp/leadmarket-reset-");
// As root the cluster runs as the `postgres` user, which must reach the folder.
await chmod(parent, 0o755);
const data = path.join(parent, "data");
process.env.LEADMARKET_DATA_DIR = data;
const { loadSecrets, rootHome, startEmbeddedDatabase } = await import("@/scripts/embedded");
const home = userInfo().uid === 0 ? await rootHome() : null;

afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
  await rm(parent, { recursive: true, force: true });
});

/** Starts the embedded database, runs `work` on it, and stops it. */
async function withDatabase<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const database = await startEmbeddedDatabase(await loadSecrets());
  const client = new Client({ connectionString: database.url });
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
    await database.stop();
  }
}

const marked = (client: Client) =>
  client.query("SELECT to_regclass('demo_marker') AS marker").then(({ rows }) => rows[0].marker !== null);

function script(name: string): { status: number | null; output: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, LEADMARKET_DATA_DIR: data };
  // The embedded demo, as a fresh checkout starts it.
  for (const name of ["DATABASE_URL", "NODE_ENV"]) delete env[name];
  const result = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", name], {
    env,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

describe("resetting the embedded demo", () => {
  it("starts fresh after the data folder is deleted, and after npm run reset", async () => {
    await withDatabase((client) => client.query("CREATE TABLE demo_marker (id int)"));
    await rm(data, { recursive: true, force: true });
    // The earlier cluster is gone from the database the new data folder opens.
    expect(await withDatabase(marked)).toBe(false);

    await withDatabase((client) => client.query("CREATE TABLE demo_marker (id int)"));
    const reset = script("scripts/reset.ts");
    expect(reset.status).toBe(0);
    expect(reset.output).toMatch(/^Deleted the demo data \(.*\): `npm start` creates a fresh demo\.$/);
    expect(existsSync(data)).toBe(false);
    if (home) expect(existsSync(home)).toBe(false);
    expect(await withDatabase(marked)).toBe(false);
  }, 180_000);

  it("says in one line how to recover when the cluster refuses the data folder's password", async () => {
    const secretsFile = path.join(data, "secrets.json");
    const secrets = JSON.parse(await readFile(secretsFile, "utf8")) as Record<string, string>;
    await writeFile(secretsFile, JSON.stringify({ ...secrets, dbPassword: "not-the-clusters" }));
    const start = script("scripts/start.ts");
    expect(start.status).toBe(1);
    expect(start.output).toMatch(/refuses the password kept in .*: run `npm run reset` for a fresh demo/);
    expect(start.output.split("\n")).toHaveLength(1);
  }, 120_000);
});
