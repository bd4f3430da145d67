import fs from "node:fs";
import path from "node:path";
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

// lib modules the browser loads (client components import them) and the zod schemas, which carry
// no server-only marker.
const browserSafe = [
  "lib/client/**",
  "lib/schemas/**",
  "lib/categories/images.ts",
  "lib/email-quality.ts",
  "lib/leads/fields.ts",
  "lib/location.ts",
  "lib/orders/key.ts",
  "lib/packages.ts",
  "lib/payments/status.ts",
  "lib/segments/schema.ts",
  "lib/segments/vocabularies.ts",
  "lib/site.ts",
  "lib/utils.ts",
];
// lib modules plain Node loads outside Next's react-server condition, where server-only throws: the
// custom server (scripts/server.mjs, next.config.ts's cache handler), and the browser tests' global
// setup, which migrates and seeds the demo data (tests/support/database.ts, prisma/demo-data.ts).
const plainNode = [
  "lib/categories/cache-handler.mjs",
  "lib/categories/front-cache.mjs",
  "lib/http/**",
  "lib/errors.ts",
  "lib/migrate.ts",
  "lib/pg-transaction.ts",
  "lib/leads/copy-lines.ts",
  "lib/leads/copy-text.ts",
  "lib/leads/email-hashes.ts",
  "lib/leads/insert.ts",
  "lib/leads/phone.ts",
  "lib/segments/unknowns.ts",
];

/** lib/<folder> of a path relative to the repository, or null for the lib root and outside lib. */
function libFolder(file) {
  const parts = file.split(/[\\/]/);
  return parts[0] === "lib" && parts.length > 2 && parts[1] !== "generated" ? parts[1] : null;
}

/** What a specifier names, relative to the repository: "@/lib/x" and "./x" forms; null for packages. */
function target(fromFile, specifier) {
  if (specifier.startsWith("@/")) return specifier.slice(2);
  if (specifier.startsWith(".")) return path.join(path.dirname(fromFile), specifier);
  return null;
}

/** lib's folder graph, from a plain scan of every import and export ... from in lib (types too). */
function folderGraph(root) {
  const graph = new Map();
  const scan = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (file !== path.join("lib", "generated")) scan(file);
        continue;
      }
      const from = libFolder(file);
      if (!from || !/\.(ts|tsx|mts|mjs)$/.test(entry.name)) continue;
      const source = fs.readFileSync(path.join(root, file), "utf8");
      for (const match of source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']/g)) {
        const to = libFolder(target(file, match[1]) ?? "");
        if (!to || to === from) continue;
        if (!graph.has(from)) graph.set(from, new Set());
        graph.get(from).add(to);
      }
    }
  };
  scan("lib");
  return graph;
}

/** A path of folders from `start` to `goal` in `graph`, or null. */
function folderPath(graph, start, goal) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const folder = queue.shift();
    if (folder === goal) {
      const steps = [];
      for (let at = goal; at !== null; at = previous.get(at)) steps.unshift(at);
      return steps;
    }
    for (const next of graph.get(folder) ?? []) {
      if (!previous.has(next)) {
        previous.set(next, folder);
        queue.push(next);
      }
    }
  }
  return null;
}

const graphs = new Map();

// The house rules import/no-cycle and the zones cannot say: no loops between lib folders (files in
// different folders may loop without any file loop), and every server module marked server-only.
const house = {
  rules: {
    "no-folder-cycle": {
      meta: { type: "problem", schema: [] },
      create(context) {
        const file = path.relative(context.cwd, context.filename);
        const from = libFolder(file);
        if (!from) return {};
        if (!graphs.has(context.cwd)) graphs.set(context.cwd, folderGraph(context.cwd));
        const graph = graphs.get(context.cwd);
        const check = (node) => {
          if (typeof node.source?.value !== "string") return;
          const to = libFolder(target(file, node.source.value) ?? "");
          if (!to || to === from) return;
          const back = folderPath(graph, to, from);
          if (!back) return;
          const loop = [from, ...back].map((folder) => `lib/${folder}`).join(" -> ");
          context.report({ node, message: `Folder loop: ${loop}. Folders import each other one way only.` });
        };
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: check,
          ImportExpression: check,
        };
      },
    },
    "server-only": {
      meta: { type: "problem", schema: [] },
      create(context) {
        return {
          Program(program) {
            const marked = program.body.some(
              (statement) =>
                statement.type === "ImportDeclaration" &&
                statement.source.value === "server-only" &&
                statement.specifiers.length === 0,
            );
            if (!marked) {
              context.report({
                node: program,
                message:
                  'A server module starts with import "server-only" (browser-safe and plain-Node modules are listed in eslint.config.mjs).',
              });
            }
          },
        };
      },
    },
  },
};

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
  {
    files: ["lib/**/*.{ts,tsx,mts,mjs}"],
    plugins: { house },
    rules: { "house/no-folder-cycle": "error" },
  },
  {
    files: ["lib/**/*.{ts,tsx,mts,mjs}"],
    ignores: [...browserSafe, ...plainNode, "lib/**/*.d.mts"],
    rules: { "house/server-only": "error" },
  },
  {
    // HTTP stays at the edge: lib/api reads the request and writes the answer, domains get values.
    files: ["lib/**/*.{ts,tsx,mts,mjs}"],
    ignores: ["lib/api/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ["next/server", "next/headers"].map((name) => ({
            name,
            message: "Requests, responses and cookies stay in app/ and lib/api; domain code takes values.",
          })),
        },
      ],
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
