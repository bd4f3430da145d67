import type { Pool } from "pg";
import { pgTransaction } from "../pg-transaction";
import type { Location } from "../categories/location";
import { checkPhone } from "./phone";

// Phone screening (docs/product-rules.md, "UK compliance"). A UK lead's valid UK number is looked
// up in the TPS and CTPS registers by one UPDATE joining leads with both (never a query per lead):
// `tps`, `ctps` or `clear`, dated with the older register's file date. The 28 days a screening
// holds are applied where it is read (columnSql in lib/leads/delivery.ts, the dashboard, the
// category page), so nothing has to run when they pass.

/** How long a screening holds, and how long before its end the dashboard warns. */
export const SCREENING_DAYS = 28;
export const SCREENING_WARNING_DAYS = 3;

const BACKFILL_BATCH = 10_000;

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
  /** UK leads whose status or screening date changed. */
  screened: number;
};

// Rows a number repeats in (two spellings in one register) join twice and say the same thing.
const SCREEN_SQL = (scope: string) => `
  UPDATE leads l SET phone_status = s.status, phone_screened_at = $1::date
  FROM (
    SELECT u.id, (CASE WHEN t.e164 IS NOT NULL THEN 'tps' WHEN c.e164 IS NOT NULL THEN 'ctps'
                       ELSE 'clear' END)::"PhoneStatus" AS status
    FROM leads u
    LEFT JOIN tps_numbers t ON t.e164 = u.phone_e164
    LEFT JOIN ctps_numbers c ON c.e164 = u.phone_e164
    WHERE u.country = 'UK' AND u.phone_e164 LIKE '+44%' ${scope}
  ) s
  WHERE l.id = s.id AND (l.phone_status, l.phone_screened_at) IS DISTINCT FROM (s.status, $1::date)`;

// Each category's sellable UK leads and how many have a callable number, for its page.
const ROLLUP_SQL = (scope: string) => `
  INSERT INTO category_phone_screens (category_id, screened_at, uk_leads, callable)
  SELECT c.id, $1::date, count(l.id)::int, count(l.id) FILTER (WHERE l.phone_status = 'clear')::int
  FROM categories c
  LEFT JOIN leads l ON l.category_id = c.id AND l.country = 'UK' AND lead_sellable(l.quarantined_at, l.email_status)
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
    // A register being swapped in waits for the screening, and the other way round.
    await client.query("LOCK TABLE tps_numbers, ctps_numbers IN SHARE MODE");
    const { rows } = await client.query<{ screened_at: string | null }>(
      "SELECT to_char(min(file_date), 'YYYY-MM-DD') AS screened_at FROM phone_registers HAVING count(*) = 2",
    );
    const screenedAt = rows[0]?.screened_at;
    if (!screenedAt) return null;
    const params = categoryId ? [screenedAt, categoryId] : [screenedAt];
    const { rowCount } = await client.query(
      SCREEN_SQL(categoryId ? "AND u.category_id = $2::uuid" : ""),
      params,
    );
    await client.query(ROLLUP_SQL(categoryId ? "AND c.id = $2::uuid" : ""), params);
    return { screenedAt, screened: rowCount ?? 0 };
  });
}
