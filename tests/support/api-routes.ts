// The route handlers under app/api as files on disk: their URL path, the HTTP methods they export
// and whether they are the admin's. Coverage tests (the abuse benchmark's entries, the OpenAPI
// document) compare their own lists with this one, so a new route cannot be forgotten.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export type ApiRoute = { path: string; methods: string[]; admin: boolean; file: string };

const ROOT = path.resolve(import.meta.dirname, "../../app/api");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** Every route under app/api, sorted by path; `[id]` segments are written `{id}`. */
export function apiRoutes(): ApiRoute[] {
  return routeFiles(ROOT)
    .map((file) => {
      const source = readFileSync(file, "utf8");
      const segments = path.relative(ROOT, path.dirname(file)).split(path.sep);
      return {
        path: `/api/${segments.map((segment) => segment.replace(/^\[(.+)\]$/, "{$1}")).join("/")}`,
        methods: METHODS.filter((method) =>
          new RegExp(`export (const|async function) ${method}\\b`).test(source),
        ),
        admin: /admin:\s*true/.test(source),
        file: path.relative(path.resolve(ROOT, "../.."), file),
      };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}
