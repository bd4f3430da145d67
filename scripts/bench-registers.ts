// Part of `npm run bench:admin` (run by it, in a process of its own: the product's code needs the
// react-server condition), on a throw-away database:
//   1. a TPS register of BENCH_REGISTER_LINES lines (20,000,000; the UK spellings 0…, +44… and
//      44…, some spaced) loaded by loadRegister (lib/leads/registers.ts: libphonenumber-js on every
//      line, COPY, index, swap) against its baseline: PostgreSQL's COPY of the same numbers, already
//      in E.164, into a table with the same index. `ratio register_vs_copy` (target: at most 1.5);
//   2. the screening of BENCH_SCREEN_LEADS UK leads (1,000,000) against it (screenPhones, one
//      UPDATE joining leads with both registers): `ratio screen_1m_s`, seconds (target: under 60).
import { once } from "node:events";
import { createReadStream, createWriteStream, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Pool } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { createTestDatabase } from "../tests/support/database";

const LINES = Number(process.env.BENCH_REGISTER_LINES ?? 20_000_000);
const LEADS = Number(process.env.BENCH_SCREEN_LEADS ?? 1_000_000);
const FIRST = 1_100_000_000;

const database = await createTestDatabase("leadmarket_bench_registers");
process.env.DATABASE_URL = database.url;
const setup = new Pool({ connectionString: database.url });
const { pool } = await import("@/lib/db");
const { loadRegister } = await import("@/lib/leads/registers");
const { screenPhones } = await import("@/lib/leads/screening");
const registerFile = path.join(tmpdir(), `bench-register-${process.pid}.txt`);
const plainFile = path.join(tmpdir(), `bench-register-plain-${process.pid}.txt`);

/** The national significant number of line i: 10 digits starting 11…, a possible UK number. */
const nsn = (i: number) => String(FIRST + i);
const SPELLINGS = [
  (n: string) => `0${n}`,
  (n: string) => `+44${n}`,
  (n: string) => `44${n}`,
  (n: string) => `0${n.slice(0, 4)} ${n.slice(4)}`,
];

async function writeLines(file: string, line: (i: number) => string): Promise<void> {
  const out = createWriteStream(file);
  let chunk = "";
  for (let i = 0; i < LINES; i++) {
    chunk += `${line(i)}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
}

const seconds = (started: number) => (performance.now() - started) / 1000;

try {
  await writeLines(registerFile, (i) => SPELLINGS[i % SPELLINGS.length](nsn(i)));
  await writeLines(plainFile, (i) => `+44${nsn(i)}`);

  let started = performance.now();
  await setup.query("CREATE TABLE plain_numbers (e164 text NOT NULL)");
  await setup.query("CREATE INDEX ON plain_numbers (e164)");
  const client = await setup.connect();
  try {
    await pipeline(createReadStream(plainFile), client.query(copyFrom("COPY plain_numbers FROM STDIN")));
  } finally {
    client.release();
  }
  const copy = seconds(started);
  await setup.query("DROP TABLE plain_numbers");

  started = performance.now();
  const report = await loadRegister(
    pool(),
    "tps",
    new Date().toISOString().slice(0, 10),
    "tps.txt",
    createReadStream(registerFile),
  );
  const load = seconds(started);
  console.log(
    `  register of ${LINES.toLocaleString("en-US")} lines: load ${load.toFixed(1)} s (${report.loaded} loaded, ${report.rejected} refused), COPY ${copy.toFixed(1)} s`,
  );
  await loadRegister(
    pool(),
    "ctps",
    new Date().toISOString().slice(0, 10),
    "ctps.txt",
    createReadStream(plainFile, { end: 1_000_000 }),
  );

  // UK leads whose numbers are every 7th of the register's range, half of them on it.
  const { rows } = await setup.query<{ id: string }>(
    "INSERT INTO categories (title) VALUES ('Bench screening') RETURNING id",
  );
  await setup.query(
    `INSERT INTO leads (category_id, first_name, last_name, email, phone, phone_e164, country, verified_at)
     SELECT $1, 'First' || i, 'Last' || i, 'p' || i || '@company' || (i % 2000) || '.test',
            '0' || n, '+44' || n, 'UK', now()
     FROM generate_series(1, $2::int) AS i, LATERAL (SELECT ($3::bigint + i::bigint * 7 * (1 + i % 2))::text AS n) x`,
    [rows[0].id, LEADS, FIRST],
  );
  await setup.query("VACUUM ANALYZE leads");
  started = performance.now();
  const screening = await screenPhones(pool());
  const screen = seconds(started);
  const { rows: statuses } = await setup.query<{ phone_status: string; leads: number }>(
    "SELECT status::text AS phone_status, count(*)::int AS leads FROM lead_phone_screens GROUP BY 1 ORDER BY 1",
  );
  console.log(
    `  screening of ${LEADS.toLocaleString("en-US")} UK leads: ${screen.toFixed(1)} s (${screening?.screened} screened; ${statuses.map((s) => `${s.phone_status} ${s.leads}`).join(", ")})`,
  );
  console.log(`ratio register_vs_copy=${(load / copy).toFixed(2)}`);
  console.log(`ratio screen_1m_s=${screen.toFixed(1)}`);
} finally {
  rmSync(registerFile, { force: true });
  rmSync(plainFile, { force: true });
  await setup.end();
  const { closeDatabase } = await import("@/lib/db");
  await closeDatabase();
  await database.drop();
}
