// Bulk insertion of leads, shared by the demo seed, the admin CSV import and the tests. Rows are
// streamed with COPY into a temporary staging table, then moved into leads by one INSERT ... SELECT
// that skips duplicates (same category and email, in the table or earlier in the same input); the
// category's count moves by exactly what was inserted, in the same transaction. COPY because it
// is PostgreSQL's cheapest way in: no statement text per batch, no parameter arrays to build.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Pool, PoolClient } from "pg";
import { from as copyFrom } from "pg-copy-streams";

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

const COLUMNS = [...TEXT_COLUMNS.map(([column]) => column), "country", "verified_at"].join(", ");
const STAGING = `CREATE TEMP TABLE lead_import (
    ${TEXT_COLUMNS.map(([column]) => `${column} text`).join(", ")}, country "Country", verified_at timestamptz
  ) ON COMMIT DROP`;
// Most inputs hold each email once. For them a plain INSERT of the emails not yet in the category
// is the cheaper move: ON CONFLICT pays a speculative insertion (an extra index probe and
// confirmation) on every row, a third more for the whole statement. When the input repeats an email
// (or a concurrent import added one meanwhile), that INSERT fails on the unique key, is rolled back
// to its savepoint, and ON CONFLICT does it exactly; reading the staging table in insertion order
// (a private table nobody else writes) keeps the first of two rows with the same email.
const MOVE_NEW = `INSERT INTO leads (category_id, ${COLUMNS})
    SELECT $1::uuid, ${COLUMNS} FROM lead_import s
    WHERE NOT EXISTS (SELECT 1 FROM leads l WHERE l.category_id = $1::uuid AND l.email = s.email)`;
const MOVE_SKIPPING = `INSERT INTO leads (category_id, ${COLUMNS})
    SELECT $1::uuid, ${COLUMNS} FROM lead_import
    ON CONFLICT (category_id, email) DO NOTHING`;
const UNIQUE_VIOLATION = "23505";

async function move(client: PoolClient, categoryId: string): Promise<number> {
  await client.query("SAVEPOINT move_new");
  try {
    const { rowCount } = await client.query(MOVE_NEW, [categoryId]);
    await client.query("RELEASE SAVEPOINT move_new");
    return rowCount ?? 0;
  } catch (error) {
    if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
    await client.query("ROLLBACK TO SAVEPOINT move_new");
    return (await client.query(MOVE_SKIPPING, [categoryId])).rowCount ?? 0;
  }
}

// COPY's text format: a tab between fields, a line per row, and these four escaped.
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIALS = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

function copyField(value: string): string {
  return COPY_SPECIAL.test(value)
    ? value.replace(COPY_SPECIALS, (character) => COPY_ESCAPES[character])
    : value;
}

function copyLine(lead: LeadInput): string {
  let line = "";
  for (const [column, field] of TEXT_COLUMNS) {
    // Emails are compared lower-cased (the unique key is on the stored text).
    line += `${copyField(column === "email" ? lead.email.toLowerCase() : lead[field])}\t`;
  }
  return `${line}${lead.country}\t${lead.verifiedAt.toISOString()}\n`;
}

export type InsertResult = { received: number; inserted: number; suppressed: number };

// Erased people's addresses (docs/product-rules.md, "Privacy requests") never come back: staged rows
// whose normalised email hashes to a suppressed one are dropped before the move. Hashing every
// staged row only happens once anyone has been erased.
const DROP_SUPPRESSED = `DELETE FROM lead_import s
    WHERE EXISTS (SELECT 1 FROM suppressed_emails)
      AND EXISTS (SELECT 1 FROM suppressed_emails x
                   WHERE x.email_hash = encode(sha256(convert_to(s.email, 'UTF8')), 'hex'))`;

function copyLines(
  batches: AsyncIterable<LeadInput[]> | Iterable<LeadInput[]>,
  prefix: string,
  counted: (leads: number) => void,
): Readable {
  async function* lines(): AsyncGenerator<string> {
    for await (const leads of batches) {
      let text = "";
      for (const lead of leads) text += prefix + copyLine(lead);
      counted(leads.length);
      yield text;
    }
  }
  return Readable.from(lines());
}

/**
 * Inserts leads into a category, all or none, from batches that may still be arriving (an upload
 * being parsed): each batch is sent to PostgreSQL as soon as it is ready. Throwing from `batches`
 * cancels the COPY and rolls everything back.
 */
export async function insertLeadStream(
  pool: Pool,
  categoryId: string,
  batches: AsyncIterable<LeadInput[]> | Iterable<LeadInput[]>,
): Promise<InsertResult> {
  const client = await pool.connect();
  let received = 0;
  try {
    await client.query("BEGIN");
    await client.query(STAGING);
    await pipeline(
      copyLines(batches, "", (leads) => (received += leads)),
      client.query(copyFrom("COPY lead_import FROM STDIN")),
    );
    const suppressed = (await client.query(DROP_SUPPRESSED)).rowCount ?? 0;
    const inserted = await move(client, categoryId);
    await client.query("UPDATE categories SET count = count + $2, updated_at = now() WHERE id = $1", [
      categoryId,
      inserted,
    ]);
    await client.query("COMMIT");
    return { received, inserted, suppressed };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Copies leads straight into a category within the caller's transaction, for a caller that
 * vouches every email is new to the category and appears once (the demo generator): no staging
 * table and no check against existing rows, so about half the work; a repeated email fails the
 * COPY. Answers how many were inserted.
 */
export async function copyNewLeads(
  client: PoolClient,
  categoryId: string,
  batches: AsyncIterable<LeadInput[]> | Iterable<LeadInput[]>,
): Promise<number> {
  let inserted = 0;
  await pipeline(
    copyLines(batches, `${categoryId}\t`, (leads) => (inserted += leads)),
    client.query(copyFrom(`COPY leads (category_id, ${COLUMNS}) FROM STDIN`)),
  );
  await client.query("UPDATE categories SET count = count + $2, updated_at = now() WHERE id = $1", [
    categoryId,
    inserted,
  ]);
  return inserted;
}

const BATCH_SIZE = 5000;

/** Inserts leads into a category; returns how many were new. Emails are compared lower-cased. */
export async function insertLeads(pool: Pool, categoryId: string, leads: LeadInput[]): Promise<number> {
  const batches = function* (): Generator<LeadInput[]> {
    for (let start = 0; start < leads.length; start += BATCH_SIZE)
      yield leads.slice(start, start + BATCH_SIZE);
  };
  return (await insertLeadStream(pool, categoryId, batches())).inserted;
}
