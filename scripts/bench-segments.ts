// npm run bench:segments - segment counts from the production build, in a throw-away database whose
// one category holds BENCH_LEADS (1,000,000) leads with the demo data's facet spread (80% USA, 20%
// UK), each figure against a baseline measured in the same run, alternating:
//   GET /api/categories/{id}/segment (count and five facets, over HTTP) for 200 random filter
//     combinations                  vs SELECT count(*) with the same filter on a plain copy of the
//                                      leads (category, country, facet columns) with an index per
//                                      facet;
//   the category page with a segment   vs the unfiltered category page (time to first byte).
// Both sides are warmed up first with other combinations (nothing measured is answered from a
// warm-up). Also measured, for the record: the first answers after a catalogue change (the app
// reads the rollup again; both pages are rendered again), against the same baselines.
// Prints p50 and p95 of both and ends with `ratio NAME=VALUE` lines (lower is better).
// Needs a build: `npm run build` (or NEXT_DIST_DIR). Targets: segment p95 < 50 ms,
// segment_vs_count <= 0.5, page_segment_vs_unfiltered <= 1.5.
import http from "node:http";
import { Pool } from "pg";
import { insertLeadStream } from "../lib/leads/insert";
import { createCategoryWithLeads, leadBatches } from "../prisma/demo-data";
import { FACETS } from "../lib/segments/vocabularies";
import { startAppServer } from "../tests/support/app-server";
import { createTestDatabase } from "../tests/support/database";
import { combinations, median, percentile, segmentQuery, type Combination } from "./bench-stats";

const TOTAL_LEADS = Number(process.env.BENCH_LEADS ?? 1_000_000);
const COMBINATIONS = 200;
const WARM_UP = 20;
const AFTER_CHANGE_RUNS = 10;
const PAGE_RUNS = 100;
const port = Number(process.env.BENCH_PORT ?? 43_970);
const base = `http://127.0.0.1:${port}`;

/** Milliseconds to the first byte of the answer's body, and to its end. */
function timed(path: string): Promise<{ first: number; all: number; status: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
    const request = http.get(`${base}${path}`, (response) => {
      let first = 0;
      response.once("data", () => (first = ms()));
      response.on("data", () => undefined);
      response.on("end", () => resolve({ first, all: ms(), status: response.statusCode ?? 0 }));
    });
    request.on("error", reject);
  });
}

const since = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;

/** A change to the catalogue as any write makes it (the version its transaction bumps). */
const catalogueChange = (pool: Pool) =>
  pool.query("UPDATE catalogue_version SET version = version + 1 WHERE id = 1");

async function main(): Promise<void> {
  const database = await createTestDatabase("leadmarket_bench_segments");
  const pool = new Pool({ connectionString: database.url });
  // An idle connection closed under it (the database dropped at the end) is not a failure.
  pool.on("error", (error) => console.error(`pool: ${error.message}`));
  const server = await startAppServer({
    port,
    env: {
      DATABASE_URL: database.url,
      APP_SECRET: "bench-segments-secret-0123456789-0123456789",
      PAYMENTS_TEST_MODE: "0",
      SMTP_URL: "",
    },
    stdout: "ignore",
  });
  try {
    const usa = Math.round(TOTAL_LEADS * 0.8);
    const loading = Date.now();
    const category = await createCategoryWithLeads(pool, { title: "Software & SaaS" }, 0);
    // At this size the generator repeats some addresses: the import path skips repeats.
    let loaded = 0;
    for (const [country, count, seed] of [
      ["USA", usa, 26],
      ["UK", TOTAL_LEADS - usa, 2600],
    ] as const) {
      const batches = leadBatches(count, { seed, category: "Software & SaaS", country });
      loaded += (await insertLeadStream(pool, category, batches)).inserted;
    }
    console.log(
      `${loaded.toLocaleString("en-US")} leads loaded in ${((Date.now() - loading) / 1000).toFixed(1)} s`,
    );
    await pool.query(`CREATE TABLE plain_leads AS
      SELECT category_id, country, facet_region, facet_seniority, facet_department, facet_size, facet_revenue
      FROM leads WHERE lead_sellable(quarantined_at, email_status, notice_status)`);
    for (const facet of FACETS) {
      await pool.query(`CREATE INDEX ON plain_leads (category_id, country, facet_${facet})`);
    }
    // Every table either side reads starts vacuumed (the load left the rollup's rows updated many times).
    for (const table of ["plain_leads", "leads", "category_segments"])
      await pool.query(`VACUUM ANALYZE ${table}`);
    const { rows: combos } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM category_segments WHERE category_id = $1",
      [category],
    );
    console.log(`rollup rows for the category: ${combos[0].n}`);

    const plainCount = async ({ location, filters }: Combination) => {
      const params: unknown[] = [category, location];
      const where = Object.entries(filters).map(([facet, values]) => {
        params.push(values);
        return `facet_${facet} = ANY($${params.length}::text[])`;
      });
      const started = process.hrtime.bigint();
      await pool.query(
        `SELECT count(*) FROM plain_leads WHERE category_id = $1 AND country = $2::"Country" AND ${where.join(" AND ")}`,
        params,
      );
      return since(started);
    };
    const segment = async (combination: Combination) => {
      const query = segmentQuery(combination);
      const answer = await timed(`/api/categories/${category}/segment?${query}`);
      if (answer.status !== 200) throw new Error(`segment ${query}: HTTP ${answer.status}`);
      return answer.all;
    };

    for (const combination of combinations(WARM_UP, 2026)) {
      await segment(combination);
      await plainCount(combination);
    }
    const segmentTimes: number[] = [];
    const countTimes: number[] = [];
    // Each side goes first for half of the combinations.
    for (const [i, combination] of combinations(COMBINATIONS, 26).entries()) {
      if (i % 2) countTimes.push(await plainCount(combination));
      segmentTimes.push(await segment(combination));
      if (!(i % 2)) countTimes.push(await plainCount(combination));
    }
    const changedTimes: number[] = [];
    const changedCountTimes: number[] = [];
    for (const combination of combinations(AFTER_CHANGE_RUNS, 260)) {
      await catalogueChange(pool);
      changedTimes.push(await segment(combination));
      changedCountTimes.push(await plainCount(combination));
    }
    const line = (name: string, times: number[]) =>
      console.log(
        `${name}: p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms`,
      );
    line(`segment endpoint (${COMBINATIONS} combinations)`, segmentTimes);
    line("SELECT count(*) on plain leads with an index per facet", countTimes);

    console.log(
      `segment endpoint, first answer after a catalogue change: median ${median(changedTimes).toFixed(1)} ms ` +
        `(count(*) ${median(changedCountTimes).toFixed(1)} ms)`,
    );

    const plain = `/category/${category}`;
    const filtered = `/category/${category}?package=starter&region=CA,NY&seniority=c_level,vp&size=51-200`;
    await timed(plain);
    await timed(filtered);
    const plainTimes: number[] = [];
    const filteredTimes: number[] = [];
    // Each goes first in half the pairs.
    for (let i = 0; i < PAGE_RUNS; i += 1) {
      if (i % 2) plainTimes.push((await timed(plain)).first);
      filteredTimes.push((await timed(filtered)).first);
      if (!(i % 2)) plainTimes.push((await timed(plain)).first);
    }
    // Both rendered again after a change, each segment new.
    const plainRendered: number[] = [];
    const filteredRendered: number[] = [];
    for (const combination of combinations(AFTER_CHANGE_RUNS, 2600)) {
      await catalogueChange(pool);
      plainRendered.push((await timed(plain)).first);
      filteredRendered.push((await timed(`${plain}?package=starter&${segmentQuery(combination)}`)).first);
    }
    console.log(
      `category page TTFB: unfiltered median ${median(plainTimes).toFixed(1)} ms, ` +
        `with a segment median ${median(filteredTimes).toFixed(1)} ms; rendered after a change: ` +
        `unfiltered ${median(plainRendered).toFixed(1)} ms, a new segment ${median(filteredRendered).toFixed(1)} ms`,
    );
    console.log(`segment p95=${percentile(segmentTimes, 0.95).toFixed(1)}ms`);
    console.log(`ratio segment_vs_count=${(median(segmentTimes) / median(countTimes)).toFixed(2)}`);
    console.log(
      `ratio segment_p95_vs_count_p95=${(percentile(segmentTimes, 0.95) / percentile(countTimes, 0.95)).toFixed(2)}`,
    );
    console.log(
      `ratio page_segment_vs_unfiltered=${(median(filteredTimes) / median(plainTimes)).toFixed(2)}`,
    );
    console.log(
      `ratio segment_after_change_vs_count=${(median(changedTimes) / median(changedCountTimes)).toFixed(2)}`,
    );
    console.log(
      `ratio page_segment_vs_unfiltered_rendered=${(median(filteredRendered) / median(plainRendered)).toFixed(2)}`,
    );
  } finally {
    await server.stop();
    await pool.end();
    await database.drop();
  }
}

await main();
