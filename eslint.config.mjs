import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import regexp from "eslint-plugin-regexp";

// The floors: app -> components -> lib/<domain> -> lib/db. A lower floor never imports a higher one,
// the shared services (payments, mail) import no domain, and nothing imports in a loop.
// docs/architecture.md explains them.
// lib/settings is configuration (like lib/env), which the services may read.
const domains = [
  "auth",
  "categories",
  "custom-requests",
  "dashboard",
  "leads",
  "orders",
  "privacy",
  "segments",
  "suppression",
];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    files: ["**/*.{ts,tsx,mjs}"],
    rules: {
      "import/no-cycle": ["error", { ignoreExternal: true }],
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./lib",
              from: ["./app", "./components"],
              message: "lib/ never imports app/ or components/.",
            },
            { target: "./components", from: "./app", message: "components/ never import app/." },
            {
              target: [...domains, "limits", "verification", "payments", "mail", "settings"].map(
                (folder) => `./lib/${folder}`,
              ),
              from: "./lib/api",
              message: "HTTP stays at the edge: domain code takes values and streams, never lib/api.",
            },
            ...["payments", "mail"].map((service) => ({
              target: `./lib/${service}`,
              from: domains.map((domain) => `./lib/${domain}`),
              message: `lib/${service} is a service the domains call; it imports no domain folder.`,
            })),
          ],
        },
      ],
    },
  },
  // Patterns run on what visitors send: none may backtrack more than linearly (a quadratic pattern
  // on a crafted cell freezes the server), checked by eslint-plugin-regexp.
  {
    files: ["app/**/*.{ts,tsx,mjs}", "lib/**/*.{ts,tsx,mjs}"],
    plugins: { regexp },
    rules: {
      "regexp/no-super-linear-backtracking": "error",
      "regexp/no-super-linear-move": "error",
    },
  },
  globalIgnores([
    ".next*/**",
    "lib/generated/**",
    ".data/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
  ]),
]);
