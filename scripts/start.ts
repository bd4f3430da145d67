// `npm start`: embedded PostgreSQL when DATABASE_URL is unset, migrations, first admin, demo data
// (embedded first start only), then the built Next.js server. Ctrl-C stops both cleanly.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { Pool } from "pg";
import { adminEmail, adminLoginBanner } from "../lib/auth/admin-account";
import { ensureAdmin } from "../lib/auth/password";
import { migrate } from "../lib/migrate";
import { productionRefusal } from "../lib/production-rules";
import { seedDemoData } from "../prisma/demo-data";
import { DATA_DIR, loadSecrets, startEmbeddedDatabase, type EmbeddedDatabase } from "./embedded";

if (existsSync(".env")) process.loadEnvFile(".env");

const started = Date.now();
const port = Number(process.env.PORT || 3000);
const embedded = !process.env.DATABASE_URL;
let database: EmbeddedDatabase | undefined;
// Set when this start generated the first admin password; shown only if it created the account.
let generatedPassword: string | undefined;
let adminBanner = "";
let server!: ChildProcessByStdio<Writable, Readable, null>;
let stopping = false;

if (embedded) {
  const secrets = await loadSecrets();
  database = await startEmbeddedDatabase(secrets);
  process.env.DATABASE_URL = database.url;
  process.env.APP_SECRET ||= secrets.appSecret;
  process.env.PAYMENTS_TEST_MODE ||= "1";
  // The embedded database is a local try-out on this machine: its test payments and localhost
  // links are what it is for, so the production rails let them through.
  process.env.ALLOW_TEST_PAYMENTS_IN_PRODUCTION ||= "1";
  process.env.PUBLIC_BASE_URL ||= `http://localhost:${port}`;
  if (!process.env.ADMIN_EMAIL) {
    process.env.ADMIN_EMAIL = "admin@example.com";
    process.env.ADMIN_PASSWORD = secrets.adminPassword;
    generatedPassword = secrets.adminPassword;
  }
} else if (process.env.NODE_ENV !== "development") {
  // The server runs in production mode: refuse before touching the database.
  const refusal = productionRefusal(process.env);
  if (refusal) {
    console.error(refusal);
    process.exit(1);
  }
}

async function stop(code: number): Promise<never> {
  await database?.stop().catch(() => undefined);
  process.exit(code);
}

try {
  const url = process.env.DATABASE_URL!;
  const applied = await migrate(url);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  // Next.js loads while the admin account and the demo data are prepared; it listens after.
  server = startServer();
  const pool = new Pool({ connectionString: url });
  const { ADMIN_EMAIL, ADMIN_PASSWORD } = process.env;
  let created = false;
  if (ADMIN_EMAIL && ADMIN_PASSWORD) {
    created = await ensureAdmin(pool, ADMIN_EMAIL, ADMIN_PASSWORD);
    if (created) console.log(`Created admin account ${ADMIN_EMAIL}`);
  } else {
    const { rowCount } = await pool.query("SELECT 1 FROM admins LIMIT 1");
    if (!rowCount)
      console.warn("No admin account exists: set ADMIN_EMAIL and ADMIN_PASSWORD and start again.");
  }
  const email = await adminEmail(pool);
  if (email)
    adminBanner = adminLoginBanner({ email, generatedPassword: created ? generatedPassword : undefined });
  const seededMarker = path.join(DATA_DIR, "seeded");
  if (embedded && !existsSync(seededMarker)) {
    const result = await seedDemoData(pool);
    writeFileSync(seededMarker, new Date().toISOString());
    console.log(`Seeded ${result.categories} demo categories and ${result.leads} leads.`);
  }
  await pool.end();
  server.stdin.end("listen\n");
} catch (error) {
  console.error((error as Error).message);
  if (server) process.kill(-server.pid!, "SIGKILL");
  await stop(1);
}

function startServer(): ChildProcessByStdio<Writable, Readable, null> {
  const child = spawn(process.execPath, [path.join("scripts", "server.mjs"), "-p", String(port)], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, NODE_ENV: "production", LEADMARKET_LISTEN_ON_STDIN: "1" },
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
      `\nLeadMarket is running at ${process.env.PUBLIC_BASE_URL || `http://localhost:${port}`} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    if (adminBanner) console.log(adminBanner);
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
