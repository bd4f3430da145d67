import { defineConfig } from "@playwright/test";

// The app under test is the production build in .next-test (npm run build:test), started by the
// global setup on its own port against a fresh database. Workers inherit E2E_PORT from here. The
// port is below Linux's ephemeral range (32768-60999), where no outgoing connection can hold it.
process.env.E2E_PORT ??= String(20000 + Math.floor(Math.random() * 10000));
process.env.NEXT_DIST_DIR ??= ".next-test";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-quic",
  "--no-first-run",
  "--disable-sync",
];

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: false,
  workers: 2,
  // One retry in CI only: the 2-core CI machine can starve a browser for seconds; the list
  // reporter still names any test that needed it as flaky.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${process.env.E2E_PORT}`,
    browserName: "chromium",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS },
    // Recording a trace (screencast and snapshots) roughly doubled a spec's time on 2 cores and
    // starved the pages it recorded; CI's results are thrown away with its clone, so it records none.
    trace: process.env.CI ? "off" : "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [{ name: "desktop", use: { viewport: { width: 1280, height: 800 } } }],
});
