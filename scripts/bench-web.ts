// `npm run bench:web`: Lighthouse (mobile emulation, the default config) against the production
// build of the public site. Starts the built app on a fresh seeded database, audits the home page
// and a category page, and prints the four category scores per page (median of the runs).
//
//   npm run build && npm run bench:web
//   NEXT_DIST_DIR=.next-x BENCH_RUNS=3 npm run bench:web
//   npm run bench:web -- --serve     # only start the seeded app and keep it running
//   BENCH_REPORT_DIR=/tmp/lhr npm run bench:web   # also save each run's full report (LHR JSON)
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { Pool } from "pg";
import { seedDemoData } from "../prisma/demo-data";
import { createTestDatabase } from "../tests/support/database";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROME_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const METRICS = [
  "first-contentful-paint",
  "largest-contentful-paint",
  "total-blocking-time",
  "speed-index",
  "cumulative-layout-shift",
] as const;
const METRIC_LABELS: Record<string, string> = {
  "first-contentful-paint": "FCP",
  "largest-contentful-paint": "LCP",
  "total-blocking-time": "TBT",
  "speed-index": "SI",
};
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const distDir = process.env.NEXT_DIST_DIR ?? ".next";
const port = Number(process.env.BENCH_PORT ?? 41000 + Math.floor(Math.random() * 8000));
const baseUrl = `http://127.0.0.1:${port}`;
const serveOnly = process.argv.includes("--serve");
const reportDir = process.env.BENCH_REPORT_DIR;

if (!existsSync(`${distDir}/BUILD_ID`)) {
  console.error(`No production build in ${distDir}: run \`npm run build\` first (or set NEXT_DIST_DIR).`);
  process.exit(1);
}

async function waitForHealth(server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The app exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("The app did not become healthy within 60 s");
}

/** Every script the page's HTML loads (modern browsers), summed raw and gzipped (what `next build` used to print). */
async function firstLoadJs(url: string): Promise<{ files: number; raw: number; gzip: number }> {
  const html = await (await fetch(url)).text();
  // noModule scripts are legacy polyfills that modern browsers never download.
  const tags = [...html.matchAll(/<script[^>]+src="([^"]+)"[^>]*>/g)].filter(
    (match) => !/nomodule/i.test(match[0]),
  );
  const sources = [...new Set(tags.map((match) => match[1]))];
  let raw = 0;
  let gzip = 0;
  for (const source of sources) {
    const body = Buffer.from(await (await fetch(new URL(source, url))).arrayBuffer());
    raw += body.length;
    gzip += gzipSync(body).length;
  }
  return { files: sources.length, raw, gzip };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const database = await createTestDatabase("leadmarket_bench");
const pool = new Pool({ connectionString: database.url });
await seedDemoData(pool);
const { rows } = await pool.query<{ id: string }>(
  "SELECT id FROM categories WHERE title = 'Marketing' LIMIT 1",
);
await pool.end();

const server = spawn(process.execPath, ["scripts/server.mjs", "-p", String(port), "-H", "127.0.0.1"], {
  env: {
    ...process.env,
    NODE_ENV: "production",
    NEXT_DIST_DIR: distDir,
    DATABASE_URL: database.url,
    APP_SECRET: "bench-secret-0123456789-0123456789-abcdef",
    PUBLIC_BASE_URL: baseUrl,
    PAYMENTS_TEST_MODE: "1",
    ALLOW_TEST_PAYMENTS_IN_PRODUCTION: "1",
  },
  stdio: ["ignore", "ignore", "inherit"],
});

async function shutdown(): Promise<void> {
  server.kill("SIGTERM");
  if (server.exitCode === null) await new Promise((resolve) => server.once("exit", resolve));
  await database.drop();
}

try {
  await waitForHealth(server);
  const pages = [
    { name: "home", url: `${baseUrl}/` },
    { name: "category", url: `${baseUrl}/category/${rows[0]?.id}?package=standard` },
  ];
  if (serveOnly) {
    console.log(`Serving ${distDir} on ${baseUrl} (Ctrl-C to stop)`);
    for (const page of pages) console.log(`  ${page.name}: ${page.url}`);
    // Ctrl-C or a plain kill: either way the server stops and the throw-away database is dropped.
    await new Promise<void>((resolve) => {
      process.once("SIGINT", () => resolve());
      process.once("SIGTERM", () => resolve());
    });
  } else {
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
    try {
      // One unmeasured visit per page so the server's first-request compilation is not scored.
      for (const page of pages) await fetch(page.url).then((response) => response.text());
      const firstLoad = await firstLoadJs(pages[0].url);
      console.log(
        `First-load JavaScript of /: ${firstLoad.files} files, ${(firstLoad.raw / 1024).toFixed(1)} kB raw, ${(firstLoad.gzip / 1024).toFixed(1)} kB gzip`,
      );
      console.log(`Lighthouse ${runs} run(s) per page, mobile emulation, median scores (0-100):`);
      for (const page of pages) {
        const scores: Record<string, number[]> = {};
        const metrics: Record<string, number[]> = {};
        for (let run = 0; run < runs; run += 1) {
          const result = await lighthouse(page.url, {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            onlyCategories: [...CATEGORIES],
          });
          if (!result) throw new Error(`Lighthouse returned nothing for ${page.url}`);
          if (reportDir) {
            mkdirSync(reportDir, { recursive: true });
            writeFileSync(`${reportDir}/${page.name}-${run + 1}.json`, JSON.stringify(result.lhr));
          }
          for (const category of CATEGORIES) {
            (scores[category] ??= []).push(Math.round((result.lhr.categories[category]?.score ?? 0) * 100));
          }
          for (const metric of METRICS) {
            (metrics[metric] ??= []).push(result.lhr.audits[metric]?.numericValue ?? 0);
          }
          const failing = Object.values(result.lhr.audits).filter(
            (audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode === "binary",
          );
          if (run === 0 && failing.length) {
            console.log(`  ${page.name} failing audits: ${failing.map((audit) => audit.id).join(", ")}`);
          }
        }
        const line = CATEGORIES.map((category) => `${category} ${median(scores[category])}`).join("  ");
        console.log(`${page.name.padEnd(9)} ${line}   (${page.url.replace(baseUrl, "")})`);
        const timings = METRICS.map((metric) =>
          metric === "cumulative-layout-shift"
            ? `CLS ${median(metrics[metric]).toFixed(3)}`
            : `${METRIC_LABELS[metric]} ${Math.round(median(metrics[metric]))} ms`,
        );
        console.log(`          ${timings.join("  ")}`);
      }
    } finally {
      chrome.kill();
    }
  }
} finally {
  await shutdown();
}
