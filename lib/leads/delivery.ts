import "server-only";
import { escapeLiteral } from "pg";
import { pool } from "@/lib/db";
import type { Column } from "@/lib/packages";

// What a paid order delivers: its allocated leads in allocation order, with the columns its
// package includes (PACKAGE_COLUMNS in lib/packages.ts). CSV streams the rows out of COPY (export-csv.ts);
// Excel reads them in keyset batches, so a 20,000-lead download never sits in memory at once.

/** One lead's cells, in the order of its package's columns (null for an empty cell). */
export type DeliveryRow = (string | null)[];
const BATCH_SIZE = 2000;

/** A column's text as delivered, as an SQL expression over the lead `l`. */
export function columnSql(key: string): string {
  // Column keys come from the fixed PACKAGE_COLUMNS table, never from input.
  if (key === "verified_at") return `to_char(l.verified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
  if (key === "country") return "l.country::text";
  return `l.${key}`;
}

/**
 * The one query behind every delivery: the order's leads in allocation order, `select` evaluated
 * per lead (over `l`, the lead, and `ol`, its order_leads row). A rule on which of an order's
 * leads may still be delivered belongs in this WHERE clause: only leads of the order's country
 * (allocation chose them so; a lead edited into another country since is not delivered).
 * `after` and `limit` read a keyset page.
 */
export function orderLeadsSql(
  orderId: string,
  select: string,
  page: { after: number; limit: number } | null = null,
): string {
  // The lateral subquery (kept apart by OFFSET 0) looks each lead up by primary key, in position
  // order: joined plainly, a 20,000-lead order against a million-row leads table can be planned as
  // a hash or merge join that reads every lead.
  return `SELECT ${select}
    FROM order_leads ol
    CROSS JOIN LATERAL (SELECT * FROM leads WHERE leads.id = ol.lead_id OFFSET 0) l
    WHERE ol.order_id = ${escapeLiteral(orderId)}
      AND l.country = (SELECT location FROM orders WHERE id = ${escapeLiteral(orderId)})${page ? ` AND ol.position > ${Math.trunc(page.after)}` : ""}
    ORDER BY ol.position${page ? ` LIMIT ${Math.trunc(page.limit)}` : ""}`;
}

type Batch = { rows: DeliveryRow[]; last: number; full: boolean };

async function readBatch(orderId: string, select: string, after: number): Promise<Batch> {
  // Rows as arrays, not objects: with 17 columns and 20,000 rows, building keyed objects is a
  // measurable share of a download's time.
  const { rows } = await pool().query<[number, ...DeliveryRow]>({
    text: orderLeadsSql(orderId, `ol.position, ${select}`, { after, limit: BATCH_SIZE }),
    rowMode: "array",
  });
  if (rows.length === 0) return { rows: [], last: after, full: false };
  return {
    rows: rows.map(([, ...cells]) => cells),
    last: rows[rows.length - 1][0],
    full: rows.length === BATCH_SIZE,
  };
}

/**
 * The order's leads, in allocation order, as text in column order, a batch at a time. The next
 * batch is read while the current one is being written out, so the database and the encoder overlap.
 */
export async function* orderLeadBatches(orderId: string, columns: Column[]): AsyncGenerator<DeliveryRow[]> {
  const select = columns.map(({ key }) => columnSql(key)).join(", ");
  let pending: Promise<Batch> | null = readBatch(orderId, select, 0);
  try {
    while (pending) {
      const batch: Batch = await pending;
      pending = batch.full ? readBatch(orderId, select, batch.last) : null;
      // A read-ahead nobody waits for (the buyer left) must not become an unhandled rejection.
      pending?.catch(() => undefined);
      if (batch.rows.length) yield batch.rows;
    }
  } finally {
    pending = null;
  }
}
