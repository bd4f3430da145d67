// Sellable leads (docs/product-rules.md, "Verification"): a lead whose address was found invalid
// leaves the per-country counts and the freshness share, the previews and the allocation query at
// once, and comes back when a later check clears it, whoever changes the row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const { db, pool } = await import("@/lib/db");
const { findAnyCategory } = await import("@/lib/categories/public");
const { listLeadPreviews, findLeadPreview } = await import("@/lib/leads/previews");
const { freshLeadsQuery } = await import("@/lib/leads/allocation");
const { createCategoryWithLeads } = await import("@/prisma/demo-data");

let categoryId: string;

beforeAll(async () => {
  categoryId = await createCategoryWithLeads(pool(), { title: "Sellable Test" }, { usa: 30, uk: 10 }, 7);
});

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
});

async function allocatable(): Promise<bigint[]> {
  const rows = await db().$queryRaw<{ id: bigint }[]>`
    SELECT id FROM (${freshLeadsQuery({ categoryId, country: "USA" }, 1000)}) AS chosen`;
  return rows.map((row) => row.id);
}

describe("invalid addresses are never sold", () => {
  it("leave counts, freshness, previews and allocation when found invalid, and return when cleared", async () => {
    const usa = await db().lead.findMany({
      where: { categoryId, country: "USA" },
      select: { id: true },
      orderBy: { id: "asc" },
    });
    const invalid = usa.slice(0, 4).map((lead) => lead.id);

    await db().lead.updateMany({
      where: { id: { in: invalid } },
      data: { emailStatus: "invalid", emailStatusReason: "no_mail_domain", emailCheckedAt: new Date() },
    });
    const after = await findAnyCategory(categoryId);
    expect(after?.countByLocation).toEqual({ USA: 26, UK: 10 });
    const previews = await listLeadPreviews({ categoryId, location: "USA", page: 1, pageSize: 100 });
    expect(previews.leads).toHaveLength(26);
    expect(previews.total).toBe(26);
    expect(await findLeadPreview(invalid[0])).toBeNull();
    const chosen = await allocatable();
    expect(chosen).toHaveLength(26);
    expect(chosen.filter((id) => invalid.includes(id))).toEqual([]);

    // Statuses other than invalid stay sellable; a cleared lead counts again.
    await db().lead.updateMany({
      where: { id: { in: invalid.slice(0, 2) } },
      data: { emailStatus: "accept_all" },
    });
    expect((await findAnyCategory(categoryId))?.countByLocation).toEqual({ USA: 28, UK: 10 });
    expect(await allocatable()).toHaveLength(28);

    // The status mix of the country comes from the same rollup.
    await db().lead.updateMany({
      where: { id: { in: invalid.slice(0, 1) } },
      data: { emailStatus: "valid" },
    });
    expect((await findAnyCategory(categoryId))?.statusMixByLocation).toEqual({
      USA: { valid: 1, acceptAll: 1, unknown: 26 },
      UK: { valid: 0, acceptAll: 0, unknown: 10 },
    });
    expect((await findAnyCategory(categoryId))?.count).toBe(38);

    // Deleting an invalid lead leaves the counts as they are: it was never counted.
    await db().lead.deleteMany({ where: { id: { in: invalid.slice(2) } } });
    expect((await findAnyCategory(categoryId))?.countByLocation).toEqual({ USA: 28, UK: 10 });
  });
});
