// The README's quick start without DATABASE_URL: an embedded PostgreSQL, demo data on the first
// start only, data kept across restarts, the first password shown once, and the reset command; as
// root, also from a checkout the `postgres` user cannot read (a clone under root's home folder).
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, mkdtemp, realpath, rm } from "node:fs/promises";
import { userInfo } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

const port = String(Number(process.env.E2E_PORT) + 1);
const url = `http://127.0.0.1:${port}`;
let dataDir: string;

test.beforeAll(async () => {
  dataDir = await mkdtemp("/tmp/leadmarket-embedded-");
  // The cluster runs as the `postgres` user when the tests run as root: it must reach the folder.
  await chmod(dataDir, 0o755);
});

/** Where a root start keeps the cluster and the binaries' copy for a data folder (scripts/embedded.ts). */
async function rootHome(folder: string): Promise<string> {
  const id = createHash("sha256")
    .update(await realpath(folder))
    .digest("hex")
    .slice(0, 16);
  return `/var/lib/leadmarket/${id}`;
}

test.afterAll(async () => {
  if (userInfo().uid === 0) await rm(await rootHome(dataDir), { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

/** The environment of a fresh checkout: embedded database, nothing configured. */
function cleanEnv(data = dataDir): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: port,
    LEADMARKET_DATA_DIR: data,
  };
  for (const name of [
    "DATABASE_URL",
    "APP_SECRET",
    "ADMIN_EMAIL",
    "ADMIN_PASSWORD",
    "NODE_ENV",
    "PUBLIC_BASE_URL",
    "DNS_SERVERS",
  ]) {
    delete env[name];
  }
  return env;
}

async function start(
  options: { cwd?: string; data?: string } = {},
): Promise<{ server: ChildProcess; output: () => string }> {
  // As `npm start` runs it: one process, so a signal reaches the script itself.
  const server = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"],
    { env: cleanEnv(options.data), cwd: options.cwd },
  );
  let log = "";
  server.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  server.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  await expect
    .poll(async () => (await fetch(`${url}/api/health`).catch(() => null))?.status, { timeout: 90_000 })
    .toBe(200);
  // The banner follows Next's "Ready" line, which can come a moment after the first answer.
  await expect.poll(() => log).toContain("LeadMarket is running at");
  return { server, output: () => log };
}

async function stop(server: ChildProcess): Promise<void> {
  server.kill("SIGINT");
  await new Promise((resolve) => server.once("exit", resolve));
  // Nothing of it is left running: the app's port is free again.
  await expect.poll(async () => (await fetch(`${url}/api/health`).catch(() => null))?.status).toBeUndefined();
}

test("embedded start seeds once, keeps data and stops cleanly", async () => {
  test.setTimeout(180_000);
  const first = await start();
  const categories = (await (await fetch(`${url}/api/categories`)).json()) as {
    title: string;
    count: number;
  }[];
  expect(categories.length).toBeGreaterThanOrEqual(8);
  expect(Math.max(...categories.map((category) => category.count))).toBeGreaterThanOrEqual(25_000);
  expect(first.output()).toContain("Seeded");
  // The demo's company domains answer nothing real: the embedded start runs without domain checks.
  await expect
    .poll(() => first.output())
    .toContain("Mail-domain checks: off (set DNS_SERVERS to host:port,... to turn them on)");
  // As root, the cluster lives where the `postgres` user owns it, outside the checkout.
  if (userInfo().uid === 0) expect(first.output()).toContain(`cluster in ${await rootHome(dataDir)}/pg`);
  const generated = first.output().match(/Admin login at \/admin\/login: admin@example\.com \/ (\S+)/)?.[1];
  expect(generated).toBeTruthy();
  await stop(first.server);

  // The admin resets the password from the command line while the store is stopped.
  const reset = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/reset-admin-password.ts"],
    {
      env: { ...cleanEnv(), ADMIN_PASSWORD: "reset-by-command" },
      encoding: "utf8",
    },
  );
  expect(reset.stdout).toContain(
    "Password changed for admin@example.com. Every admin session has been signed out.",
  );
  expect(reset.status, reset.stderr).toBe(0);

  const second = await start();
  const again = (await (await fetch(`${url}/api/categories`)).json()) as { title: string }[];
  expect(again.map((category) => category.title)).toEqual(categories.map((category) => category.title));
  expect(second.output()).not.toContain("Seeded");
  // Later starts never repeat the first password; they say how to reset it.
  expect(second.output()).toContain(
    "Admin login at /admin/login: admin@example.com (forgot the password? Run: npm run admin:reset-password)",
  );
  expect(second.output()).not.toContain(generated!);
  const signIn = (password: string) =>
    fetch(`${url}/api/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@example.com", password }),
    });
  expect((await signIn("reset-by-command")).status).toBe(200);
  await stop(second.server);
  // The last lines may still be in the pipe when the process exits.
  await expect.poll(() => second.output()).toContain("Stopping LeadMarket");
});

test("as root, starts from a checkout the postgres user cannot read", async () => {
  test.skip(userInfo().uid !== 0, "only root runs PostgreSQL as another user");
  test.setTimeout(180_000);
  // A clone under a folder only root may enter, as under /root: this checkout's files, hard-linked.
  const home = await mkdtemp("/tmp/leadmarket-root-home-");
  await chmod(home, 0o700);
  const checkout = path.join(home, "checkout");
  const data = path.join(checkout, ".data-test");
  try {
    execFileSync("cp", ["-al", process.cwd(), checkout]);
    await rm(data, { recursive: true, force: true });
    const readable = spawnSync("su", ["postgres", "-s", "/bin/sh", "-c", `test -r ${checkout}/package.json`]);
    expect(readable.status).not.toBe(0);

    const started = await start({ cwd: checkout, data });
    const categories = (await (await fetch(`${url}/api/categories`)).json()) as unknown[];
    expect(categories.length).toBeGreaterThanOrEqual(8);
    expect(started.output()).toContain(`cluster in ${await rootHome(data)}/pg`);
    expect(started.output()).not.toMatch(/EACCES|\n\s+at /);
    await stop(started.server);
  } finally {
    await rm(await rootHome(data).catch(() => "/nonexistent"), { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  }
});
