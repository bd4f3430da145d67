// `npm start`: embedded PostgreSQL when DATABASE_URL is unset, migrations, first admin, demo data
// (embedded first start only), then the built Next.js server. Ctrl-C stops both cleanly.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { Pool } from "pg";
import { adminEmail, adminLoginBanner } from "@/lib/auth/admin-account";
import { ensureAdmin } from "@/lib/auth/password";
import { closeDatabase } from "@/lib/db";
import { applyDefaults, env, productionProblem, serverEnvironment, type Env } from "@/lib/env";
import { migrate } from "@/lib/migrate";
import { seedDemoData } from "../prisma/demo-data";
import { dataDir, loadSecrets, startEmbeddedDatabase, type EmbeddedDatabase } from "./embedded";

if (existsSync(".env")) process.loadEnvFile(".env");

const started = Date.now();
let config: Env;
try {
  config = env();
} catch (error) {
  // A configuration the server would refuse: the reason and the fix, without a stack trace.
  console.error((error as Error).message);
  process.exit(1);
}
const embedded = !config.DATABASE_URL;
let database: EmbeddedDatabase | undefined;
// Set when this start generated the first admin password; shown only if it created the account.
let generatedPassword: string | undefined;
let adminBanner = "";
let server!: ChildProcessByStdio<Writable, Readable, null>;
let stopping = false;

if (embedded) {
  const secrets = await loadSecrets();
  try {
    database = await startEmbeddedDatabase(secrets);
  } catch (error) {
    // What failed and how to recover, without a stack trace.
    console.error((error as Error).message);
    process.exit(1);
  }
  if (!config.ADMIN_EMAIL) generatedPassword = secrets.adminPassword;
  config = applyDefaults({
    DATABASE_URL: database.url,
    APP_SECRET: secrets.appSecret,
    PAYMENTS_TEST_MODE: "1",
    // The embedded database is a local try-out on this machine: its test payments and localhost
    // links are what it is for, so the production rails let them through.
    ALLOW_TEST_PAYMENTS_IN_PRODUCTION: "1",
    PUBLIC_BASE_URL: config.PUBLIC_BASE_URL,
    // The demo's company domains answer nothing real: without resolvers named, no domain checks.
    DNS_SERVERS: "off",
    ...(generatedPassword ? { ADMIN_EMAIL: "admin@example.com", ADMIN_PASSWORD: generatedPassword } : {}),
  });
} else {
  // The server runs in production mode: refuse before touching the database.
  const problem = productionProblem();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}

async function stop(code: number): Promise<never> {
  await database?.stop().catch(() => undefined);
  process.exit(code);
}

try {
  const applied = await migrate(config.DATABASE_URL!);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  // Next.js loads while the admin account and the demo data are prepared; it listens after.
  server = startServer();
  const { ADMIN_EMAIL, ADMIN_PASSWORD } = config;
  let created = false;
  if (ADMIN_EMAIL && ADMIN_PASSWORD) {
    created = await ensureAdmin(ADMIN_EMAIL, ADMIN_PASSWORD);
    if (created) console.log(`Created admin account ${ADMIN_EMAIL}`);
  }
  const email = await adminEmail();
  if (!email) console.warn("No admin account exists: set ADMIN_EMAIL and ADMIN_PASSWORD and start again.");
  else adminBanner = adminLoginBanner({ email, generatedPassword: created ? generatedPassword : undefined });
  const seededMarker = path.join(dataDir(), "seeded");
  if (embedded && !existsSync(seededMarker)) {
    const pool = new Pool({ connectionString: config.DATABASE_URL });
    const result = await seedDemoData(pool).finally(() => pool.end());
    writeFileSync(seededMarker, new Date().toISOString());
    console.log(`Seeded ${result.categories} demo categories and ${result.leads} leads.`);
  }
  await closeDatabase();
  server.stdin.end("listen\n");
} catch (error) {
  console.error((error as Error).message);
  if (server) process.kill(-server.pid!, "SIGKILL");
  await stop(1);
}

/** Whether the mail-domain checks run, and against which resolvers (docs/product-rules.md, "Verification"). */
function domainChecksBanner(): string {
  const servers = config.DNS_SERVERS;
  if (servers?.length === 0)
    return "Mail-domain checks: off (set DNS_SERVERS to host:port,... to turn them on)";
  const named = servers
    ? servers.map((server) => `${server.host}:${server.port}`).join(", ")
    : "the system's";
  return `Mail-domain checks: on (resolvers: ${named})`;
}

function startServer(): ChildProcessByStdio<Writable, Readable, null> {
  const serverArgs = [path.join("scripts", "server.mjs"), "-p", String(config.PORT), "--listen-after-stdin"];
  const child = spawn(process.execPath, serverArgs, {
    stdio: ["pipe", "pipe", "inherit"],
    env: serverEnvironment(),
    // Its own process group: stopping must reach the server and anything it spawned even when
    // only this process is signalled (a service manager, `kill <pid>`).
    detached: true,
  });
  child.on("exit", (code) => void stop(stopping ? 0 : (code ?? 1)));
  return child;
}

server.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (chunk.toString().includes("Ready")) {
    console.log(
      `\nLeadMarket is running at ${config.PUBLIC_BASE_URL} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    if (adminBanner) console.log(adminBanner);
    console.log(domainChecksBanner());
  }
});

// `npm start` runs this script as `node --import tsx`, not through the tsx CLI: the CLI relays a
// signal and SIGKILLs the script when it does not acknowledge within 30 ms, which would leave Next
// running without anyone to stop it.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping LeadMarket...");
    process.kill(-server.pid!, "SIGTERM");
  });
}
