// `npm start` in production refuses a missing APP_SECRET or PUBLIC_BASE_URL, and test payments
// unless they are allowed explicitly, before it touches the database.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const production = {
  NODE_ENV: "production" as const,
  // Nothing listens here: a start that got as far as migrating would fail differently.
  DATABASE_URL: "postgres://postgres@127.0.0.1:9/none",
  APP_SECRET: "rails-secret-0123456789-0123456789-abcdef",
  PUBLIC_BASE_URL: "https://leads.example.com",
  PAYMENTS_TEST_MODE: "0",
  ALLOW_TEST_PAYMENTS_IN_PRODUCTION: "",
};

function start(overrides: Record<string, string>): { status: number | null; output: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, ...production, ...overrides };
  const result = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"],
    {
      env,
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("production start rails", () => {
  it.each([
    ["APP_SECRET", { APP_SECRET: "" }, /APP_SECRET is required in production/],
    ["PUBLIC_BASE_URL", { PUBLIC_BASE_URL: "" }, /PUBLIC_BASE_URL is required in production/],
    ["test payments", { PAYMENTS_TEST_MODE: "1" }, /PAYMENTS_TEST_MODE=1 is refused in production/],
  ])("refuses to start without %s, before migrating", (_label, overrides, message) => {
    const { status, output } = start(overrides);
    expect(status).toBe(1);
    expect(output).toMatch(message);
    expect(output).not.toMatch(/ECONNREFUSED/);
  });

  it.each([
    [
      "APP_SECRET",
      { APP_SECRET: "" },
      /^APP_SECRET is required in production: set it to .*openssl rand -hex 32\)$/,
    ],
    [
      "PUBLIC_BASE_URL",
      { PUBLIC_BASE_URL: "" },
      /^PUBLIC_BASE_URL is required in production: set it to .*https:\/\//,
    ],
  ])(
    "says why and how to fix it in one line without %s, with or without NODE_ENV",
    (_label, overrides, line) => {
      for (const nodeEnv of ["production", ""]) {
        const { status, output } = start({ ...overrides, NODE_ENV: nodeEnv });
        expect(status).toBe(1);
        // No stack trace, no source excerpt: only the one line.
        expect(output.trim()).toMatch(line);
        expect(output.trim().split("\n")).toHaveLength(1);
      }
    },
  );

  it("gets past the rails with test payments allowed explicitly (and then needs its database)", () => {
    const { status, output } = start({ PAYMENTS_TEST_MODE: "1", ALLOW_TEST_PAYMENTS_IN_PRODUCTION: "1" });
    expect(status).toBe(1);
    expect(output).not.toMatch(/refused in production|is required in production/);
    expect(output).toMatch(/ECONNREFUSED/);
  });
});
