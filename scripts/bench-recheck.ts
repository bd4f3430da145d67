// Part of `npm run bench:admin` (run by it, in a process of its own: the product's code needs the
// react-server condition): re-checks of 100,000 due leads (BENCH_RECHECK_ROWS) on 2,000 domains
// against a DNS server on loopback and the ZeroBounce stand-in answering each batch in 50 ms, on a
// throw-away database. The stand-in has no call limit, so the provider's pace (5 batches a minute)
// and EMAIL_VERIFY_RATE are lifted: this measures our side. Prints `ratio recheck_rows_per_s=N`
// (target: at least 5,000).
import { Pool } from "pg";
import { createTestDatabase } from "../tests/support/database";
import { startDnsServer } from "../tests/support/dns-server";
import { startZeroBounceStandin } from "../tests/support/zerobounce-standin";

const ROWS = Number(process.env.BENCH_RECHECK_ROWS ?? 100_000);
const DOMAINS = 2000;

const database = await createTestDatabase("leadmarket_bench_recheck");
process.env.DATABASE_URL = database.url;
const zone = Object.fromEntries(
  Array.from({ length: DOMAINS }, (_, i) => [
    `company${i}.test`,
    { mx: [{ exchange: "mx.test", priority: 10 }] },
  ]),
);
const dns = await startDnsServer({ zone });
const standin = await startZeroBounceStandin();
standin.delayMs = 50;
const setup = new Pool({ connectionString: database.url });
const { pool } = await import("@/lib/db");
try {
  const { rows } = await setup.query<{ id: string }>(
    "INSERT INTO categories (title) VALUES ('Bench re-check') RETURNING id",
  );
  // One in 50 addresses is on a domain that does not exist: those turn invalid.
  await setup.query(
    `INSERT INTO leads (category_id, first_name, last_name, email, country, verified_at)
     SELECT $1, 'First' || i, 'Last' || i,
            'p' || i || '@' || CASE WHEN i % 50 = 0 THEN 'gone' || i ELSE 'company' || (i % ${DOMAINS}) END || '.test',
            'USA', now() - interval '40 days'
     FROM generate_series(1, $2::int) AS i`,
    [rows[0].id, ROWS],
  );
  await setup.query("ANALYZE leads");
  const { recheckDueLeads } = await import("@/lib/leads/recheck");
  const { MailDomainChecker } = await import("@/lib/verification/mail-domain");
  const { ZeroBounce } = await import("@/lib/verification/zerobounce");
  const started = performance.now();
  const result = await recheckDueLeads({
    domains: new MailDomainChecker({ servers: [{ host: dns.host, port: dns.port }] }),
    provider: new ZeroBounce({ apiKey: standin.apiKey, apiUrl: standin.url }),
    ratePerSecond: 0,
    monthlyLimit: null,
    batchesPerMinute: Number.POSITIVE_INFINITY,
    concurrency: 8,
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.checked !== ROWS || result.stoppedBy) throw new Error(`re-check: ${JSON.stringify(result)}`);
  console.log(
    `Re-checked ${ROWS.toLocaleString("en-US")} leads in ${seconds.toFixed(2)} s (${result.invalid} invalid, ` +
      `${result.confirmed} confirmed, ${standin.calls.length} provider batches)`,
  );
  console.log(`ratio recheck_rows_per_s=${Math.round(ROWS / seconds)}`);
} finally {
  await pool().end();
  await setup.end();
  await dns.close();
  await standin.close();
  await database.drop();
}
