// Bulk insertion of leads, shared by the demo seed, the admin CSV import and the tests. Rows go in
// as arrays through unnest() in large batches; duplicates (same category and email) are skipped and
// the category's count moves by exactly what was inserted, in the same transaction.
import type { Pool, PoolClient } from "pg";

export type Country = "USA" | "UK";

export type LeadInput = {
  firstName: string;
  lastName: string;
  jobTitle: string;
  seniority: string;
  department: string;
  company: string;
  companyWebsite: string;
  companySize: string;
  companyRevenue: string;
  industry: string;
  email: string;
  phone: string;
  city: string;
  state: string;
  country: Country;
  profileUrl: string;
  verifiedAt: Date;
};

const TEXT_COLUMNS = [
  ["first_name", "firstName"],
  ["last_name", "lastName"],
  ["job_title", "jobTitle"],
  ["seniority", "seniority"],
  ["department", "department"],
  ["company", "company"],
  ["company_website", "companyWebsite"],
  ["company_size", "companySize"],
  ["company_revenue", "companyRevenue"],
  ["industry", "industry"],
  ["email", "email"],
  ["phone", "phone"],
  ["city", "city"],
  ["state", "state"],
  ["profile_url", "profileUrl"],
] as const satisfies readonly (readonly [string, keyof LeadInput])[];

const BATCH_SIZE = 5000;

const INSERT_SQL = (() => {
  const columns = TEXT_COLUMNS.map(([column]) => column);
  const arrays = TEXT_COLUMNS.map((_, index) => `$${index + 2}::text[]`);
  const n = TEXT_COLUMNS.length;
  return `INSERT INTO leads (category_id, ${columns.join(", ")}, country, verified_at)
    SELECT $1::uuid, u.* FROM unnest(${arrays.join(", ")}, $${n + 2}::"Country"[], $${n + 3}::timestamptz[]) AS u
    ON CONFLICT (category_id, email) DO NOTHING`;
})();

async function insertBatch(client: PoolClient, categoryId: string, leads: LeadInput[]): Promise<number> {
  const values: unknown[] = [categoryId];
  for (const [, field] of TEXT_COLUMNS) values.push(leads.map((lead) => lead[field]));
  values.push(leads.map((lead) => lead.country));
  values.push(leads.map((lead) => lead.verifiedAt.toISOString()));
  const result = await client.query(INSERT_SQL, values);
  return result.rowCount ?? 0;
}

/** Inserts leads into a category; returns how many were new. Emails are compared lower-cased. */
export async function insertLeads(pool: Pool, categoryId: string, leads: LeadInput[]): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    let inserted = 0;
    for (let start = 0; start < leads.length; start += BATCH_SIZE) {
      const batch = leads
        .slice(start, start + BATCH_SIZE)
        .map((lead) => ({ ...lead, email: lead.email.toLowerCase() }));
      inserted += await insertBatch(client, categoryId, batch);
    }
    await client.query("UPDATE categories SET count = count + $2, updated_at = now() WHERE id = $1", [
      categoryId,
      inserted,
    ]);
    await client.query("COMMIT");
    return inserted;
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
}
