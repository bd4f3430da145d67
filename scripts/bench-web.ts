// `npm run bench:web`: the public site's speed against baselines measured in the same run, and its
// weight. Starts the built app on a fresh seeded database, then:
//   - throughput of `/`, a category page and GET /api/categories, each against its baseline, the two
//     alternating (A, B, A, B) so that load from elsewhere on the machine hits both alike: the same
//     HTML from a static node server, and a bare node:http + pg server running the same query;
//   - page weight: HTML (raw and gzip), JavaScript transferred (gzip, modern browsers), how often the
//     stylesheet appears in the HTML, and the RSC prefetches a browser makes on the category page;
//   - Lighthouse (mobile emulation, the default config), median of the runs per page.
// Ends with machine-readable lines, one per figure: `ratio NAME=VALUE` (baseline throughput /
// product throughput: lower is better, 1.0 is parity) and `lighthouse home=N category=N`.
//
//   npm run build && npm run bench:web
//   NEXT_DIST_DIR=.next-x BENCH_RUNS=5 BENCH_SECONDS=5 npm run bench:web
//   npm run bench:web -- --serve     # only start the seeded app and keep it running
//   npm run bench:web -- --weight    # only the page weights (prints `js home=N KB` and its chunks)
//   BENCH_REPORT_DIR=/tmp/lhr npm run bench:web   # also save each run's full report (LHR JSON)
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium, type Browser } from "playwright-core";
import { Pool } from "pg";
import { seedDemoData } from "../prisma/demo-data";
import { createTestDatabase } from "../tests/support/database";
import { median } from "./bench-stats";
import { freePort } from "./free-port";

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
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const seconds = Math.max(1, Number(process.env.BENCH_SECONDS ?? 5));
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const connections = Math.max(1, Number(process.env.BENCH_CONNECTIONS ?? 10));
const distDir = process.env.NEXT_DIST_DIR ?? ".next";
const port = Number(process.env.BENCH_PORT) || (await freePort());
const baseUrl = `http://127.0.0.1:${port}`;
const serveOnly = process.argv.includes("--serve");
const weightOnly = process.argv.includes("--weight");
const reportDir = process.env.BENCH_REPORT_DIR;

if (!existsSync(`${distDir}/BUILD_ID`)) {
  console.error(`No production build in ${distDir}: run \`npm run build\` first (or set NEXT_DIST_DIR).`);
  process.exit(1);
}

async function waitFor(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`${url}: the server exited with code ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within 60 s`);
}

// The baselines, each its own process as the app is. The static server answers every path with the
// saved HTML of the page asked for; the bare server runs the query GET /api/categories shows.
const STATIC_SERVER = `
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
const pages = JSON.parse(readFileSync(process.argv[1], "utf8"));
const bodies = Object.fromEntries(Object.entries(pages).map(([path, file]) => [path, readFileSync(file)]));
createServer((request, response) => {
  const body = bodies[request.url] ?? bodies["/"];
  response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length });
  response.end(body);
}).listen(Number(process.argv[2]), "127.0.0.1");
`;
const BARE_SERVER = `
import { createServer } from "node:http";
import pg from "pg";
const pool = new pg.Pool({ connectionString: process.argv[1], max: 10 });
createServer(async (request, response) => {
  const { rows } = await pool.query(
    "SELECT id, title, description, count, created_at FROM categories ORDER BY created_at, id");
  const body = JSON.stringify(rows.map((row) => ({ _id: row.id, title: row.title,
    description: row.description, count: row.count, createdAt: row.created_at.toISOString() })));
  response.writeHead(200, { "content-type": "application/json" });
  response.end(body);
}).listen(Number(process.argv[2]), "127.0.0.1");
`;

function startNode(source: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ["--input-type=module", "-e", source, ...args], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** Requests per second over `seconds`, from `connections` keep-alive connections asking in a loop. */
async function throughput(url: string): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url);
  const end = Date.now() + seconds * 1000;
  let done = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        { host: target.hostname, port: target.port, path: target.pathname + target.search, agent },
        (res) => {
          if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
          res.on("data", () => undefined);
          res.on("end", () => resolve());
        },
      );
      req.on("error", reject);
      req.end();
    });
  const worker = async () => {
    while (Date.now() < end) {
      await one();
      done += 1;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
  return done / ((Date.now() - started) / 1000);
}

/** Alternates product and baseline `rounds` times; answers baseline / product (medians). */
async function compare(name: string, product: string, baseline: string): Promise<string> {
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    a.push(await throughput(product));
    b.push(await throughput(baseline));
  }
  console.log(
    `${name.padEnd(24)} product ${a.map((n) => n.toFixed(0)).join(", ")} req/s   baseline ${b
      .map((n) => n.toFixed(0))
      .join(", ")} req/s`,
  );
  return `ratio ${name}=${(median(b) / median(a)).toFixed(2)}`;
}

type Weight = { htmlRaw: number; htmlGzip: number; jsFiles: number; jsRaw: number; jsGzip: number };

/** The HTML and every script it loads in modern browsers (noModule polyfills excluded), raw and gzip. */
async function weight(html: string, url: string): Promise<Weight> {
  const tags = [...html.matchAll(/<script[^>]+src="([^"]+)"[^>]*>/g)].filter(
    (match) => !/nomodule/i.test(match[0]),
  );
  const sources = [...new Set(tags.map((match) => match[1]))];
  let jsRaw = 0;
  let jsGzip = 0;
  for (const source of sources) {
    const body = Buffer.from(await (await fetch(new URL(source, url))).arrayBuffer());
    jsRaw += body.length;
    jsGzip += gzipSync(body).length;
  }
  const htmlBytes = Buffer.from(html);
  return {
    htmlRaw: htmlBytes.length,
    htmlGzip: gzipSync(htmlBytes).length,
    jsFiles: sources.length,
    jsRaw,
    jsGzip,
  };
}

/**
 * Every script a browser loads for the page without interaction (those the HTML names and those
 * fetched after load, e.g. code loaded when idle), gzip size of each, largest first.
 */
async function loadedScripts(browser: Browser, url: string): Promise<{ url: string; gzip: number }[]> {
  const page = await browser.newPage();
  const bodies: Promise<{ url: string; gzip: number }>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return;
    bodies.push(response.body().then((body) => ({ url: response.url(), gzip: gzipSync(body).length })));
  });
  try {
    await page.goto(url, { waitUntil: "networkidle" });
    await page.waitForTimeout(5000);
    return (await Promise.all(bodies)).sort((a, b) => b.gzip - a.gzip);
  } finally {
    await page.close();
  }
}

/**
 * How many copies of the stylesheet the HTML holds: linked files, inline <style> blocks and copies
 * in the RSC payload (Tailwind's first rule marks each).
 */
function stylesheetCopies(html: string): { links: number; inline: number } {
  const links = (html.match(/<link[^>]+rel="stylesheet"/g) ?? []).length;
  const inline = (html.match(/@layer properties/g) ?? []).length;
  return { links, inline };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

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
const helpers: ChildProcess[] = [];

async function shutdown(): Promise<void> {
  for (const child of [...helpers, server]) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
  await database.drop();
}

try {
  await waitFor(`${baseUrl}/api/health`, server);
  const pages = [
    { name: "home", path: "/" },
    { name: "category", path: `/category/${rows[0]?.id}?package=standard` },
  ];
  if (serveOnly) {
    console.log(`Serving ${distDir} on ${baseUrl} (Ctrl-C to stop)`);
    for (const page of pages) console.log(`  ${page.name}: ${baseUrl}${page.path}`);
    // Ctrl-C or a plain kill: either way the server stops and the throw-away database is dropped.
    await new Promise<void>((resolve) => {
      process.once("SIGINT", () => resolve());
      process.once("SIGTERM", () => resolve());
    });
  } else {
    const lines: string[] = [];
    // Each page once unmeasured (its first request renders it), then saved for the static server.
    const saved = mkdtempSync(path.join(tmpdir(), "leadmarket-bench-"));
    const files: Record<string, string> = {};
    const html: Record<string, string> = {};
    for (const page of pages) {
      await fetch(`${baseUrl}${page.path}`).then((response) => response.text());
      html[page.name] = await (await fetch(`${baseUrl}${page.path}`)).text();
      files[page.path] = path.join(saved, `${page.name}.html`);
      writeFileSync(files[page.path], html[page.name]);
    }
    writeFileSync(path.join(saved, "pages.json"), JSON.stringify(files));
    const staticPort = await freePort();
    const barePort = await freePort();
    helpers.push(startNode(STATIC_SERVER, [path.join(saved, "pages.json"), String(staticPort)]));
    helpers.push(startNode(BARE_SERVER, [database.url, String(barePort)]));
    await waitFor(`http://127.0.0.1:${staticPort}/`, helpers[0]);
    await waitFor(`http://127.0.0.1:${barePort}/`, helpers[1]);

    console.log("Page weight:");
    for (const page of pages) {
      const measured = await weight(html[page.name], `${baseUrl}${page.path}`);
      const css = stylesheetCopies(html[page.name]);
      console.log(
        `  ${page.name.padEnd(9)} HTML ${kb(measured.htmlRaw)} (${kb(measured.htmlGzip)} gzip)  JS ${measured.jsFiles} files ${kb(measured.jsRaw)} (${kb(measured.jsGzip)} gzip)  stylesheet: ${css.links} linked, ${css.inline} inline copies`,
      );
      lines.push(
        `weight ${page.name} html_gzip_kb=${(measured.htmlGzip / 1024).toFixed(1)} js_gzip_kb=${(measured.jsGzip / 1024).toFixed(1)} stylesheet_copies=${css.links + css.inline}`,
      );
    }
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    try {
      const scripts = await loadedScripts(browser, `${baseUrl}/`);
      const total = scripts.reduce((sum, script) => sum + script.gzip, 0);
      console.log(`  home page: ${scripts.length} scripts loaded without interaction, ${kb(total)} gzip:`);
      for (const script of scripts)
        console.log(`    ${kb(script.gzip).padStart(9)}  ${new URL(script.url).pathname}`);
      lines.push(`js home=${(total / 1024).toFixed(0)} KB`);
      if (!weightOnly) {
        const page = await browser.newPage();
        let prefetches = 0;
        page.on("request", (request) => {
          if (request.headers()["next-router-prefetch"]) prefetches += 1;
        });
        await page.goto(`${baseUrl}${pages[1].path}`, { waitUntil: "networkidle" });
        await page.waitForTimeout(1000);
        console.log(`  category page: ${prefetches} RSC prefetch request(s) after load`);
        lines.push(`prefetch category=${prefetches}`);
      }
    } finally {
      await browser.close();
    }

    if (!weightOnly) {
      console.log(`Throughput, ${connections} connections, ${rounds} x ${seconds} s each, alternating:`);
      lines.push(await compare("home_vs_static", `${baseUrl}/`, `http://127.0.0.1:${staticPort}/`));
      lines.push(
        await compare(
          "category_vs_static",
          `${baseUrl}${pages[1].path}`,
          `http://127.0.0.1:${staticPort}${pages[1].path}`,
        ),
      );
      lines.push(
        await compare("categories_api_vs_bare", `${baseUrl}/api/categories`, `http://127.0.0.1:${barePort}/`),
      );

      const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
      const performance: Record<string, number> = {};
      try {
        console.log(`Lighthouse ${runs} run(s) per page, mobile emulation, median scores (0-100):`);
        for (const page of pages) {
          const url = `${baseUrl}${page.path}`;
          const scores: Record<string, number[]> = {};
          const metrics: Record<string, number[]> = {};
          for (let run = 0; run < runs; run += 1) {
            const result = await lighthouse(url, {
              port: chrome.port,
              output: "json",
              logLevel: "error",
              onlyCategories: [...CATEGORIES],
            });
            if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
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
          performance[page.name] = median(scores.performance);
          const line = CATEGORIES.map((category) => `${category} ${median(scores[category])}`).join("  ");
          console.log(`${page.name.padEnd(9)} ${line}   (${page.path})`);
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
      lines.push(`lighthouse home=${performance.home} category=${performance.category}`);
    }
    console.log("");
    for (const line of lines) console.log(line);
  }
} finally {
  await shutdown();
}
