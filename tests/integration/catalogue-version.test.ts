// The catalogue version that cached catalogue pages are checked against (docs/product-rules.md,
// "Catalogue pages from cache"): every change to categories or leads that pages show bumps it in
// its own transaction, whoever makes it; a rolled-back change, or an update of a check's own
// bookkeeping (email_checked_at, the reason, the flags), does not.
import { afterAll, describe, expect, it } from "vitest";
import { db, pool } from "@/lib/db";
import { createCategory, deleteCategory, updateCategory } from "@/lib/categories/admin";
import { insertLeads, type LeadInput } from "@/lib/leads/insert";

afterAll(async () => {
  await db().$disconnect();
  await pool().end();
});

async function version(): Promise<bigint> {
  const { rows } = await pool().query<{ version: string }>("SELECT version::text FROM catalogue_version");
  return BigInt(rows[0].version);
}

describe("catalogue version", () => {
  it("rises with every change to categories or leads, and only when it commits", async () => {
    let before = await version();
    const category = await createCategory({ title: `Version ${Date.now()}` });
    expect(await version()).toBeGreaterThan(before);

    before = await version();
    await updateCategory(category._id, { description: "Described" });
    expect(await version()).toBeGreaterThan(before);

    before = await version();
    const lead: LeadInput = {
      firstName: "Ada",
      lastName: "Lovelace",
      jobTitle: "",
      seniority: "",
      department: "",
      company: "Engines",
      companyWebsite: "",
      companySize: "",
      companyRevenue: "",
      industry: "",
      email: `ada-${Date.now()}@version.test`,
      phone: "",
      city: "",
      state: "",
      country: "UK",
      profileUrl: "",
      verifiedAt: new Date(),
    };
    await insertLeads(pool(), category._id, [lead]);
    expect(await version()).toBeGreaterThan(before);

    before = await version();
    await pool().query(
      `UPDATE leads SET email_checked_at = now(), email_status_reason = 'checked', role_account = true,
              email_status = email_status WHERE category_id = $1`,
      [category._id],
    );
    const emptyUpdate = "UPDATE categories SET count = count WHERE id = $1 AND false";
    await pool().query(emptyUpdate, [category._id]);
    expect(await version()).toBe(before);
    await pool().query("UPDATE leads SET email_status = 'accept_all' WHERE category_id = $1", [category._id]);
    expect(await version()).toBeGreaterThan(before);
    before = await version();
    await pool().query("UPDATE leads SET quarantined_at = now() WHERE category_id = $1", [category._id]);
    expect(await version()).toBeGreaterThan(before);

    before = await version();
    await pool().query("DELETE FROM leads WHERE category_id = $1", [category._id]);
    expect(await version()).toBeGreaterThan(before);

    before = await version();
    const client = await pool().connect();
    try {
      await client.query("BEGIN");
      await client.query("UPDATE categories SET title = 'Never' WHERE id = $1", [category._id]);
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    expect(await version()).toBe(before);

    await deleteCategory(category._id);
    expect(await version()).toBeGreaterThan(before);
  });
});
