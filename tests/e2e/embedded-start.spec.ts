// The README's quick start without DATABASE_URL: an embedded PostgreSQL, demo data on the first
// start only, data kept across restarts.
import { spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { expect, test } from "@playwright/test";

const port = String(Number(process.env.E2E_PORT) + 1);
const url = `http://127.0.0.1:${port}`;
let dataDir: string;

test.beforeAll(async () => {
  dataDir = await mkdtemp("/tmp/leadmarket-embedded-");
  // The cluster runs as the `postgres` user when the tests run as root: it must reach the folder.
  await chmod(dataDir, 0o755);
});

test.afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function start(): Promise<{ server: ChildProcess; output: () => string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: port,
    LEADMARKET_DATA_DIR: dataDir,
  };
  for (const name of [
    "DATABASE_URL",
    "APP_SECRET",
    "ADMIN_EMAIL",
    "ADMIN_PASSWORD",
    "NODE_ENV",
    "PUBLIC_BASE_URL",
  ]) {
    delete env[name];
  }
  // As `npm start` runs it: one process, so a signal reaches the script itself.
  const server = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env });
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
  expect(first.output()).toMatch(/Admin login at \/admin\/login: admin@example\.com \/ \S+/);
  await stop(first.server);

  const second = await start();
  const again = (await (await fetch(`${url}/api/categories`)).json()) as { title: string }[];
  expect(again.map((category) => category.title)).toEqual(categories.map((category) => category.title));
  expect(second.output()).not.toContain("Seeded");
  await stop(second.server);
  // The last lines may still be in the pipe when the process exits.
  await expect.poll(() => second.output()).toContain("Stopping LeadMarket");
});
