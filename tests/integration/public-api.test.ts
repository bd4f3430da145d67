import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getCategories } from "@/app/api/categories/route";
import { GET as getCategory } from "@/app/api/categories/[id]/route";
import { GET as getHealth } from "@/app/api/health/route";
import { GET as getLead } from "@/app/api/leads/[id]/route";
import { GET as filterLeads } from "@/app/api/leads/filter/route";
import { GET as getLeads } from "@/app/api/leads/route";
import { db, pool } from "@/lib/db";
import { createCategoryWithLeads } from "@/prisma/demo-data";
import { callJson } from "../support/routes";

type Preview = Record<string, string>;
type Page = { leads: Preview[]; page: number; pageSize: number; total: number };

let categoryId: string;

beforeAll(async () => {
  categoryId = await createCategoryWithLeads(
    pool(),
    { title: "Public API Test", description: "Testers" },
    250,
    7,
  );
});

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
});

describe("public read API", () => {
  it("lists categories with exact counts", async () => {
    const { status, body } = await callJson<Record<string, unknown>[]>(getCategories, "/api/categories");
    expect(status).toBe(200);
    const mine = body.find((category) => category._id === categoryId);
    expect(mine).toMatchObject({ title: "Public API Test", description: "Testers", count: 250 });
  });

  it("answers one category, 404 for an unknown id and 400 for a malformed one", async () => {
    const found = await callJson(getCategory, "/api/categories/x", { params: { id: categoryId } });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ _id: categoryId, title: "Public API Test", count: 250 });

    const unknown = await callJson(getCategory, "/api/categories/x", {
      params: { id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: "Category not found" });

    const malformed = await callJson(getCategory, "/api/categories/x", { params: { id: "not-a-uuid" } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ success: false, errors: { id: "Invalid id" } });
  });

  it("filters masked previews by category, paginated, newest verification first", async () => {
    const first = await callJson<Page>(filterLeads, `/api/leads/filter?category=${categoryId}&pageSize=100`);
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(250);
    expect(first.body.leads).toHaveLength(100);
    const dates = first.body.leads.map((lead) => lead.verifiedAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const third = await callJson<Page>(
      filterLeads,
      `/api/leads/filter?category=${categoryId}&page=3&pageSize=100`,
    );
    expect(third.body.leads).toHaveLength(50);

    for (const lead of first.body.leads) {
      expect(Object.keys(lead).sort()).toEqual(
        [
          "_id",
          "categoryId",
          "city",
          "company",
          "country",
          "name",
          "state",
          "title",
          "verifiedAt",
          "emailStatus",
        ].sort(),
      );
      expect(lead.name).toMatch(/^\S+ [A-Z]\.$/);
      expect(JSON.stringify(lead)).not.toMatch(/@|linkedin|\+\d/);
    }
  });

  it("rejects bad filter and paging input with field errors", async () => {
    const cases: [string, string][] = [
      ["/api/leads/filter", "category"],
      ["/api/leads/filter?category=abc", "category"],
      [
        `/api/leads/filter?category=${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}&pageSize=101`,
        "pageSize",
      ],
      ["/api/leads?page=0", "page"],
      ["/api/leads?page=101", "page"],
      ["/api/leads?pageSize=abc", "pageSize"],
    ];
    for (const [url, field] of cases) {
      const { status, body } = await callJson<{ errors: Record<string, string> }>(
        url.startsWith("/api/leads/filter") ? filterLeads : getLeads,
        url,
      );
      expect(status, url).toBe(400);
      expect(Object.keys(body.errors), url).toContain(field);
    }
    const unknown = await callJson(
      filterLeads,
      `/api/leads/filter?category=00000000-0000-4000-8000-000000000000`,
    );
    expect(unknown.status).toBe(404);
  });

  it("lists all leads and answers one lead preview", async () => {
    const all = await callJson<Page>(getLeads, "/api/leads?pageSize=5");
    expect(all.status).toBe(200);
    expect(all.body.leads).toHaveLength(5);
    expect(all.body.total).toBeGreaterThanOrEqual(250);

    const id = all.body.leads[0]._id;
    const one = await callJson<Preview>(getLead, `/api/leads/${id}`, { params: { id } });
    expect(one.status).toBe(200);
    expect(one.body._id).toBe(id);
    expect(one.body).not.toHaveProperty("email");

    expect((await callJson(getLead, "/api/leads/x", { params: { id: "999999999999" } })).status).toBe(404);
    for (const bad of ["abc", "-1", "0", "1.5", "99999999999999999999999"]) {
      expect((await callJson(getLead, "/api/leads/x", { params: { id: bad } })).status, bad).toBe(400);
    }
  });

  it("reports health", async () => {
    const { status, body } = await callJson(getHealth, "/api/health");
    expect(status).toBe(200);
    expect(body).toEqual({ status: "ok", database: "up" });
  });
});
