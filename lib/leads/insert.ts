// Bulk insertion of leads, shared by the demo seed, the admin CSV import and the tests, by COPY:
// PostgreSQL's cheapest way in, no statement text per batch, no parameter arrays to build. Repeats
// of an email (same category and email, in the table or earlier in the same input) are skipped;
// the category's count moves by exactly what was inserted, in the same transaction.
import { hash } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Pool, PoolClient } from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { conflict } from "../errors";
import { pgTransaction } from "../pg-transaction";
import type { Location } from "../location";
import { EmailHashes } from "./email-hashes";
import type { EmailStatus } from "@/lib/verification/verify-addresses";
import type { NoticeStatus } from "@/lib/generated/prisma/enums";
import { copyLine, LEAD_COLUMNS, STAGING } from "./copy-lines";
import { copyTextValue } from "./copy-text";
import { leadIdsFrom, unknownFacetsInserted, type UnknownFacets } from "../segments/unknowns";

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

/**
 * The category's emails as stored, read by COPY (far cheaper than rows of a SELECT), in a set sized
 * for them (its sellable count, kept by triggers) rather than grown by doubling. A line of ASCII
 * without COPY's escapes (nearly all) is hashed from its bytes: no string for each of millions.
 */
async function existingEmails(client: PoolClient, categoryId: string): Promise<EmailHashes> {
  // PostgreSQL's own spelling of the uuid: safe to write into the statement, which takes no parameters.
  const { rows } = await client.query<{ id: string; count: number }>(
    "SELECT $1::uuid::text AS id, (SELECT count FROM categories WHERE id = $1::uuid) AS count",
    [categoryId],
  );
  const into = new EmailHashes(rows[0].count);
  const emails = client.query(
    copyTo(`COPY (SELECT email FROM leads WHERE category_id = '${rows[0].id}') TO STDOUT`),
  );
  // The start of a line the last chunk ended in; only that line is joined with the next chunk.
  let rest: Buffer | null = null;
  for await (const chunk of emails as AsyncIterable<Buffer>) {
    let start = 0;
    if (rest) {
      const end = chunk.indexOf(NEWLINE);
      if (end === -1) {
        rest = Buffer.concat([rest, chunk]);
        continue;
      }
      const line = Buffer.concat([rest, chunk.subarray(0, end)]);
      addEmail(into, line, 0, line.length);
      start = end + 1;
    }
    for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      addEmail(into, chunk, start, end);
      start = end + 1;
    }
    rest = start < chunk.length ? chunk.subarray(start) : null;
  }
  return into;
}

const NEWLINE = 0x0a;
const BACKSLASH = 0x5c;

/**
 * Adds the email COPY wrote from `start` to `end`: ASCII without a backslash (COPY's escape) is the
 * text as is, hashed from its bytes; anything else is decoded first.
 */
function addEmail(into: EmailHashes, data: Buffer, start: number, end: number): void {
  for (let index = start; index < end; index++) {
    if (data[index] >= 0x80 || data[index] === BACKSLASH) {
      into.add(copyTextValue(data.toString("utf8", start, end)));
      return;
    }
  }
  into.addAscii(data, start, end);
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
 * being parsed). Rows whose email is new to the category and to the input (most of them, known
 * from a set of hashes of both) are streamed by COPY straight into leads, PostgreSQL's cheapest
 * way in, as each batch is ready. The others (repeats, or a rare hash collision) go by COPY into a
 * temporary staging table whenever enough have gathered, pausing the direct COPY (a connection
 * runs one at a time), and are moved exactly at the end. Erased addresses are dropped and counted.
 * Throwing from `batches` cancels the COPY and rolls everything back.
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
      const afterId = await leadIdsFrom(client);
      const seen = await existingEmails(client, categoryId);
      const prefix = `${categoryId}\t`;

      // The next batch's rows for the direct COPY, its others staged; null at the end of the input.
      const nextDirect = async (): Promise<string | null> => {
        const next = await source.next();
        if (next.done) {
          ended = true;
          return null;
        }
        let text = "";
        for (const lead of next.value) {
          received += 1;
          const email = lead.email.toLowerCase();
          if (erased?.has(hash("sha256", email, "hex"))) suppressed += 1;
          else if (seen.add(email)) {
            text += prefix + copyLine(lead, email);
            inserted += 1;
          } else staged.push(copyLine(lead, email));
        }
        return text;
      };
      async function* direct(first: string): AsyncGenerator<string> {
        yield first;
        while (staged.length < STAGED_BATCH) {
          const text = await nextDirect();
          if (text === null) return;
          if (text) yield text;
        }
      }

      while (!ended) {
        let text: string | null = "";
        while (text === "" && staged.length < STAGED_BATCH) text = await nextDirect();
        if (text) {
          try {
            await pipeline(Readable.from(direct(text)), client.query(copyFrom(COPY_INTO_LEADS)));
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
      const unknownFacets = await unknownFacetsInserted(client, categoryId, afterId);
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
