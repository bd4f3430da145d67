// Bulk insertion of leads, shared by the demo seed, the admin CSV import and the tests, by COPY:
// PostgreSQL's cheapest way in, no statement text per batch, no parameter arrays to build. Repeats
// of an email (same category and email, in the table or earlier in the same input) are skipped;
// the category's count moves by exactly what was inserted, in the same transaction.
import { hash } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Pool, PoolClient } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { conflict } from "../errors";
import { pgTransaction } from "../pg-transaction";
import type { Location } from "../location";
import { EmailHashes } from "./email-hashes";
import type { EmailStatus } from "@/lib/verification/verify-addresses";
import type { NoticeStatus } from "@/lib/generated/prisma/enums";
import { copyLine, LEAD_COLUMNS, STAGING } from "./copy-lines";
import { unknownFacetsInserted, type UnknownFacets } from "../segments/unknowns";

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
  country: Location;
  profileUrl: string;
  verifiedAt: Date;
  /** The verdict of the address's check (docs/product-rules.md, "Verification"); unset: `unknown`. */
  emailStatus?: EmailStatus;
  /** When our check of the address last ended; unset: never. */
  emailCheckedAt?: Date | null;
  emailStatusReason?: string;
  roleAccount?: boolean;
  freeMail?: boolean;
  /** Where the lead came from (docs/product-rules.md, "UK compliance"); unset: "Not recorded". */
  source?: string;
  /** When the source collected it; unset: its verification date (it was collected by then). */
  collectedAt?: Date;
  /** Where its person's Article 14 notice is (lib/privacy/notices.ts); unset: not required. */
  noticeStatus?: NoticeStatus;
};

// Rows that may repeat an email already in the category or earlier in the input are moved from
// the staging table by one INSERT ... SELECT. Mostly they are repeats, so a plain INSERT of the
// emails not yet in the category is the cheaper move: ON CONFLICT pays a speculative insertion (an
// extra index probe and confirmation) on every row. When the staged rows repeat an email among
// themselves, that INSERT fails on the unique key, is rolled back to its savepoint, and ON
// CONFLICT does it exactly; reading the staging table in insertion order (a private table nobody
// else writes) keeps the first of two rows with the same email.
const MOVE_NEW = `INSERT INTO leads (category_id, ${LEAD_COLUMNS})
    SELECT $1::uuid, ${LEAD_COLUMNS} FROM lead_import s
    WHERE NOT EXISTS (SELECT 1 FROM leads l WHERE l.category_id = $1::uuid AND l.email = s.email)`;
const MOVE_SKIPPING = `INSERT INTO leads (category_id, ${LEAD_COLUMNS})
    SELECT $1::uuid, ${LEAD_COLUMNS} FROM lead_import
    ON CONFLICT (category_id, email) DO NOTHING`;
const UNIQUE_VIOLATION = "23505";
const COPY_INTO_LEADS = `COPY leads (category_id, ${LEAD_COLUMNS}) FROM STDIN`;

/**
 * Marks the category changed. Its count moves by the triggers on leads (the sellable rows
 * inserted), in the inserting transaction.
 */
async function touchCategory(client: PoolClient, categoryId: string): Promise<void> {
  await client.query("UPDATE categories SET updated_at = now() WHERE id = $1", [categoryId]);
}

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

export type InsertResult = {
  received: number;
  inserted: number;
  suppressed: number;
  /** Of the inserted leads, how many have each segment facet `unknown` (lib/segments). */
  unknownFacets: UnknownFacets;
};

/**
 * The hashes of erased people's normalised addresses (docs/product-rules.md, "Privacy requests"),
 * which never come back; null when nobody has been erased, so no row needs hashing.
 */
async function suppressedHashes(client: PoolClient): Promise<Set<string> | null> {
  const { rows } = await client.query<{ email_hash: string }>("SELECT email_hash FROM erased_emails");
  return rows.length > 0 ? new Set(rows.map((row) => row.email_hash)) : null;
}

// Which of a batch's emails the category holds already: one probe of its (category_id, email) key
// per email, so an import costs the same whatever the category's size (reading all its emails cost
// seconds and a 64 MB set at 4 million). Batches of at most PROBE_BATCH keep the plan a loop of
// probes: with 50,000 the planner chose to scan the whole category. The new rows' inserts then
// find the key's pages the probe read.
const PROBE = `SELECT e.email FROM unnest($2::text[]) AS e(email)
    WHERE EXISTS (SELECT 1 FROM leads l WHERE l.category_id = $1::uuid AND l.email = e.email)`;
const PROBE_BATCH = 5000;

async function emailsInCategory(
  client: PoolClient,
  categoryId: string,
  emails: string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let start = 0; start < emails.length; start += PROBE_BATCH) {
    const { rows } = await client.query<{ email: string }>(PROBE, [
      categoryId,
      emails.slice(start, start + PROBE_BATCH),
    ]);
    for (const row of rows) found.add(row.email);
  }
  return found;
}

// Two imports into one category wait for each other, so the emails read at the start stay all the
// category has (the demo seed, the only other writer, only adds emails new to it).
const LOCK_CATEGORY = "SELECT pg_advisory_xact_lock(hashtextextended('lead import ' || $1::uuid, 0))";
// An erasure (lib/privacy/requests.ts) takes this lock exclusively, imports shared: an erasure waits
// for running imports to commit, so it deletes what they added, and an import waits for a running
// erasure, so it reads the suppression list with that address on it. Imports still run side by side.
export const ERASURE_LOCK = "lead erasure";
// Rows that may be repeats wait in memory until there are this many, then go to the staging table.
const STAGED_BATCH = 5000;
// Rows new to the input are looked up and inserted this many at a time, one COPY each (a few MB of
// text): the leads' statement triggers store a statement's rows in the unsold walk's order, so a
// larger group keeps more of a sale's leads on shared pages.
const DIRECT_GROUP = 20_000;

function copyLines(
  batches: AsyncIterable<LeadInput[]> | Iterable<LeadInput[]>,
  prefix: string,
  counted: (leads: number) => void,
): Readable {
  async function* lines(): AsyncGenerator<string> {
    for await (const leads of batches) {
      let text = "";
      for (const lead of leads) text += prefix + copyLine(lead, lead.email.toLowerCase());
      counted(leads.length);
      yield text;
    }
  }
  return Readable.from(lines());
}

/**
 * Inserts leads into a category, all or none, from batches that may still be arriving (an upload
 * being parsed). The input is taken a group of rows at a time. A group's rows whose email is new to
 * the input (known from a set of hashes of the input's emails) are looked up in the category's key,
 * and those new to it too (most of them) go by one COPY straight into leads, PostgreSQL's cheapest
 * way in. The others (repeats within the input, or a rare hash collision) go by COPY into a
 * temporary staging table whenever enough have gathered, and are moved exactly at the end.
 * Erased addresses are dropped and counted. Throwing from `batches` rolls everything back.
 */
export async function insertLeadStream(
  pool: Pool,
  categoryId: string,
  batches: AsyncIterable<LeadInput[]> | Iterable<LeadInput[]>,
): Promise<InsertResult> {
  const source = (async function* (): AsyncGenerator<LeadInput[]> {
    yield* batches;
  })();
  let received = 0;
  let inserted = 0;
  let suppressed = 0;
  let ended = false;
  let staged: string[] = [];
  let staging = false;
  try {
    const result = await pgTransaction(pool, async (client) => {
      await client.query(LOCK_CATEGORY, [categoryId]);
      await client.query("SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0))", [ERASURE_LOCK]);
      const erased = await suppressedHashes(client);
      const seen = new EmailHashes();
      const prefix = `${categoryId}\t`;

      while (!ended) {
        // The next group: rows new to the input so far, by email; the others staged.
        const emails: string[] = [];
        const lines: string[] = [];
        while (emails.length < DIRECT_GROUP && staged.length < STAGED_BATCH) {
          const next = await source.next();
          if (next.done) {
            ended = true;
            break;
          }
          for (const lead of next.value) {
            received += 1;
            const email = lead.email.toLowerCase();
            if (erased?.has(hash("sha256", email, "hex"))) suppressed += 1;
            else if (seen.add(email)) {
              emails.push(email);
              lines.push(copyLine(lead, email));
            } else staged.push(copyLine(lead, email));
          }
        }
        const present = await emailsInCategory(client, categoryId, emails);
        let text = "";
        for (let index = 0; index < emails.length; index++) {
          if (present.has(emails[index])) continue;
          text += prefix + lines[index];
          inserted += 1;
        }
        if (text) {
          try {
            await pipeline(Readable.from([text]), client.query(copyFrom(COPY_INTO_LEADS)));
          } catch (error) {
            // Only an insert outside the lock (which nothing does) could have added one of these emails.
            if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
              throw conflict("The category changed during the import; try again");
            }
            throw error;
          }
        }
        if (staged.length >= STAGED_BATCH || (ended && staged.length > 0)) {
          if (!staging) await client.query(STAGING);
          staging = true;
          const rows = staged.join("");
          staged = [];
          await pipeline(Readable.from([rows]), client.query(copyFrom("COPY lead_import FROM STDIN")));
        }
      }
      if (staging) inserted += await move(client, categoryId);
      await touchCategory(client, categoryId);
      const unknownFacets = await unknownFacetsInserted(client, categoryId);
      return { received, inserted, suppressed, unknownFacets };
    });
    if (result.inserted > 0) await analyzeLeads(pool);
    return result;
  } catch (error) {
    // The input is closed (an upload read to its end) without waiting for it.
    void source.return(undefined).catch(() => undefined);
    throw error;
  }
}

/**
 * Refreshes the planner's statistics of leads (and of the unsold leads' walk, which a load grows
 * as much) after a bulk load (an import, the demo's seed), so that the plans of public counts
 * never depend on when autovacuum next runs: with a category's rows missing from the statistics,
 * a count that takes milliseconds was seen to take minutes.
 */
export async function analyzeLeads(pool: Pool): Promise<void> {
  await pool.query("ANALYZE leads, unsold_leads");
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
    client.query(copyFrom(COPY_INTO_LEADS)),
  );
  await touchCategory(client, categoryId);
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
