// Starts the production build (scripts/server.mjs, as `npm start` does) on loopback, for the browser tests and the benchmarks.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { freePort } from "../../scripts/free-port";

export type AppServer = { url: string; process: ChildProcess; stop: () => Promise<void> };

export type AppServerOptions = {
  /** A free one when not given. */
  port?: number;
  /** Added to (and winning over) this process's environment. */
  env: Record<string, string | undefined>;
  /** Where the server's log goes (errors always reach stderr). */
  stdout?: "inherit" | "ignore";
  /** A path that answers 200 once the app serves; /api/health also needs a reachable database. */
  readyPath?: string;
  /** Gets everything the server writes, stdout and stderr (which still reaches this process's). */
  onOutput?: (text: string) => void;
};

export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["scripts/server.mjs", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
      PUBLIC_BASE_URL: url,
      ...options.env,
    },
    stdio: [
      "ignore",
      options.onOutput ? "pipe" : (options.stdout ?? "inherit"),
      options.onOutput ? "pipe" : "inherit",
    ],
  });
  if (options.onOutput) {
    const onOutput = options.onOutput;
    child.stdout?.on("data", (chunk: Buffer) => onOutput(chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => {
      onOutput(chunk.toString());
      process.stderr.write(chunk);
    });
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await once(child, "exit");
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The app server exited with code ${child.exitCode}`);
    const response = await fetch(`${url}${options.readyPath ?? "/api/health"}`).catch(() => null);
    if (response?.ok) return { url, process: child, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error("The app server did not become ready within 60 s");
}

/**
 * A second server of the e2e build, on the same database (or the given one), with the built-in
 * test payment page on (the shared e2e app runs with test mode off). On the same database it shares
 * the outbox: whichever server claims a mail (another spec's receipt too) must deliver it to the
 * mailbox the specs read.
 */
export function startTestModeServer(databaseUrl = process.env.E2E_DATABASE_URL): Promise<AppServer> {
  return startAppServer({
    env: {
      DATABASE_URL: databaseUrl,
      APP_SECRET: process.env.E2E_APP_SECRET,
      PAYMENTS_TEST_MODE: "1",
      ALLOW_TEST_PAYMENTS_IN_PRODUCTION: "1",
      SMTP_URL: process.env.E2E_SMTP_URL,
      ORDER_CREATE_LIMIT: "100",
    },
    stdout: "ignore",
  });
}
