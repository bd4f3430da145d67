import "server-only";
import type { Pool } from "pg";
import { pgTransaction } from "../pg-transaction";
import type { Location } from "../location";
import { checkPhone } from "./phone";
import { SELLABLE } from "./sellable";

// Phone screening (docs/product-rules.md, "UK compliance"). Every UK lead with a valid UK number
// is looked up in the TPS and CTPS registers by one statement over leads (never a query per lead):
// `tps`, `ctps` or `clear`, dated with the older register's file date, into lead_phone_screens. A
// screening of every lead builds that table anew and swaps it in; an import's screens its new
// leads. The 28 days a screening holds are applied where it is read (columnSql in
// lib/leads/delivery.ts, the dashboard, the category page), so nothing has to run when they pass.

// Small batches: each is one UPDATE of leads, whose statement triggers compare its rows pairwise.
const BACKFILL_BATCH = 1000;

/**
 * Normalises the phones of leads stored before phones were (phone_e164 NULL: SQL cannot call
 * libphonenumber), a batch at a time; instances running it together take different rows (SKIP
 * LOCKED). Answers how many it normalised.
 */
export async function normalisePendingPhones(pool: Pool): Promise<number> {
  let done = 0;
  for (;;) {
    const count = await pgTransaction(pool, async (client) => {
      const { rows } = await client.query<{ id: string; phone: string; country: Location }>(
        `SELECT id, phone, country FROM leads WHERE phone_e164 IS NULL
          ORDER BY id LIMIT ${BACKFILL_BATCH} FOR UPDATE SKIP LOCKED`,
      );
      if (rows.length === 0) return 0;
      const checks = rows.map((row) => checkPhone(row.phone, row.country));
      await client.query(
        `UPDATE leads l SET phone_e164 = v.e164, phone_status = v.status::"PhoneStatus"
           FROM unnest($1::bigint[], $2::text[], $3::text[]) AS v(id, e164, status) WHERE l.id = v.id`,
        [rows.map((row) => row.id), checks.map((check) => check.e164), checks.map((check) => check.status)],
      );
      return rows.length;
    });
    if (count === 0) return done;
    done += count;
  }
}

/** The registers' file dates; a screening needs both registers (null until both are loaded). */
export async function registerDates(pool: Pool): Promise<{ tps: string | null; ctps: string | null }> {
  const { rows } = await pool.query<{ register: "tps" | "ctps"; file_date: string }>(
    "SELECT register, to_char(file_date, 'YYYY-MM-DD') AS file_date FROM phone_registers",
  );
  const date = (register: string) => rows.find((row) => row.register === register)?.file_date ?? null;
  return { tps: date("tps"), ctps: date("ctps") };
}

export type ScreeningReport = {
  /** The older register's file date, which the screening is as old as. */
  screenedAt: string;
  /** UK leads screened. */
  screened: number;
};

/** SQL: the screening of the UK leads `u` matching `scope`. */
const SCREENED = (scope: string) => `
  SELECT u.id AS lead_id,
    (CASE WHEN EXISTS (SELECT 1 FROM tps_numbers t WHERE t.e164 = u.phone_e164) THEN 'tps'
          WHEN EXISTS (SELECT 1 FROM ctps_numbers c WHERE c.e164 = u.phone_e164) THEN 'ctps'
          ELSE 'clear' END)::"PhoneStatus" AS status,
    $1::date AS screened_at
  FROM leads u
  WHERE u.country = 'UK' AND u.phone_e164 LIKE '+44%' ${scope}`;

// Every lead screened into a new table that replaces the old one: no row of leads is written.
const SCREEN_ALL = [
  `CREATE TABLE lead_phone_screens_next (LIKE lead_phone_screens INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`,
  `INSERT INTO lead_phone_screens_next ${SCREENED("")}`,
  "DROP TABLE lead_phone_screens",
  "ALTER TABLE lead_phone_screens_next RENAME TO lead_phone_screens",
  "ALTER TABLE lead_phone_screens ADD CONSTRAINT lead_phone_screens_pkey PRIMARY KEY (lead_id)",
];
// A category's leads not screened by these registers yet (an import's new rows).
const SCREEN_CATEGORY = `INSERT INTO lead_phone_screens (lead_id, status, screened_at)
  ${SCREENED(`AND u.category_id = $2::uuid AND NOT EXISTS (
    SELECT 1 FROM lead_phone_screens p WHERE p.lead_id = u.id AND p.screened_at = $1::date)`)}
  ON CONFLICT (lead_id) DO UPDATE SET status = EXCLUDED.status, screened_at = EXCLUDED.screened_at`;

// Each category's sellable UK leads and how many have a callable number, for its page.
const ROLLUP_SQL = (scope: string) => `
  INSERT INTO category_phone_screens (category_id, screened_at, uk_leads, callable)
  SELECT c.id, $1::date, count(l.id)::int, count(p.lead_id) FILTER (WHERE p.status = 'clear')::int
  FROM categories c
  LEFT JOIN leads l ON l.category_id = c.id AND l.country = 'UK' AND ${SELLABLE}
  LEFT JOIN lead_phone_screens p ON p.lead_id = l.id AND p.screened_at = $1::date
  WHERE true ${scope}
  GROUP BY c.id
  ON CONFLICT (category_id) DO UPDATE
    SET screened_at = EXCLUDED.screened_at, uk_leads = EXCLUDED.uk_leads, callable = EXCLUDED.callable`;

/**
 * Screens the UK leads (of one category, or all) against both registers, in one transaction with
 * the categories' callable figures; null when a register is not loaded yet (leads stay
 * `unscreened`). Phones not yet normalised are normalised first.
 */
export async function screenPhones(pool: Pool, categoryId?: string): Promise<ScreeningReport | null> {
  await normalisePendingPhones(pool);
  return pgTransaction(pool, async (client) => {
    // One screening at a time; a register being swapped in waits for it, and the other way round.
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('phone screening', 0))");
    await client.query("LOCK TABLE tps_numbers, ctps_numbers IN SHARE MODE");
    const { rows } = await client.query<{ screened_at: string | null }>(
      "SELECT to_char(min(file_date), 'YYYY-MM-DD') AS screened_at FROM phone_registers HAVING count(*) = 2",
    );
    const screenedAt = rows[0]?.screened_at;
    if (!screenedAt) return null;
    let screened = 0;
    if (categoryId) {
      screened = (await client.query(SCREEN_CATEGORY, [screenedAt, categoryId])).rowCount ?? 0;
      await client.query(ROLLUP_SQL("AND c.id = $2::uuid"), [screenedAt, categoryId]);
    } else {
      for (const statement of SCREEN_ALL) {
        const result = await client.query(statement, statement.includes("$1") ? [screenedAt] : []);
        if (result.command === "INSERT") screened = result.rowCount ?? 0;
      }
      await client.query(ROLLUP_SQL(""), [screenedAt]);
    }
    return { screenedAt, screened };
  });
}
