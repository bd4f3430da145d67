// Every public route under app/api has its entry in the abuse benchmark's table
// (scripts/abuse-endpoints.ts), and the table names no route that is gone: a new anonymous
// endpoint cannot ship without its worst input being measured by `npm run bench:abuse`.
import { describe, expect, it } from "vitest";
import { ABUSE_ENDPOINTS } from "../../scripts/abuse-endpoints";
import { apiRoutes } from "../support/api-routes";

const publicRoutes = apiRoutes()
  .filter((route) => !route.admin)
  .flatMap((route) => route.methods.map((method) => `${method} ${route.path}`));
const tabled = ABUSE_ENDPOINTS.map((entry) => `${entry.method} ${entry.path}`);

describe("the abuse benchmark's table", () => {
  it("has an entry for every public route and method", () => {
    expect(publicRoutes.filter((route) => !tabled.includes(route))).toEqual([]);
  });

  it("names only public routes that exist, each once", () => {
    expect(tabled.filter((route) => !publicRoutes.includes(route))).toEqual([]);
    expect(tabled.filter((route, index) => tabled.indexOf(route) !== index)).toEqual([]);
  });

  it("sends at least one input per entry, bounded in count, with a report name", () => {
    for (const entry of ABUSE_ENDPOINTS) {
      expect(entry.inputs.length, entry.path).toBeGreaterThan(0);
      for (const input of entry.inputs) {
        expect(input.name).toMatch(/^[a-z0-9_]+$/);
        expect(input.requests).toBeGreaterThanOrEqual(input.clients);
        expect(input.requests).toBeLessThanOrEqual(400);
      }
    }
  });
});
