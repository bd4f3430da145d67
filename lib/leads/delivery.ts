import "server-only";
import { escapeLiteral } from "pg";
import { SCREENING_DAYS } from "@/lib/schemas/category";

// What a paid order delivers: its allocated leads in allocation order, with the columns its
// package includes (PACKAGE_COLUMNS in lib/packages.ts). Both downloads stream the rows out of COPY
// (copy-rows.ts), so a 20,000-lead download never sits in memory at once.

/** One lead's cells, in the order of its package's columns (null for an empty cell). */
export type DeliveryRow = (string | null)[];

/** A column's text as delivered, as an SQL expression over the lead `l`. */
export function columnSql(key: string): string {
  // Column keys come from the fixed PACKAGE_COLUMNS table, never from input.
  if (key === "verified_at" || key === "collected_at") {
    return `to_char(l.${key} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
  }
  if (key === "country") return "l.country::text";
  // valid, accept-all, unknown or invalid (a lead found invalid more than 30 days after the sale
  // stays in the file; before that lib/orders/heal.ts swaps it).
  if (key === "email_status") return "replace(l.email_status::text, '_', '-')";
  // docs/product-rules.md, "UK compliance": a number on the TPS or CTPS is not delivered (its status
  // says why, and it stays empty once the screening is too old), and a screening holds 28 days
  // from the registers' file date, after which the status reads `unscreened`.
  if (key === "phone") return "CASE WHEN ps.status IN ('tps', 'ctps') THEN '' ELSE l.phone END";
  if (key === "phone_status") {
    return `CASE WHEN ps.status IS NULL THEN l.phone_status::text
      WHEN ps.screened_at < current_date - ${SCREENING_DAYS} THEN 'unscreened' ELSE ps.status::text END`;
  }
  // Every cell is text, as the stored columns are: an unscreened phone's date is empty, not NULL.
  if (key === "phone_screened_at") return "COALESCE(to_char(ps.screened_at, 'YYYY-MM-DD'), '')";
  return `l.${key}`;
}

/**
 * The one query behind every delivery: the order's leads in allocation order, `select` evaluated
 * per lead (over `l`, the lead, `ol`, its order_leads row, and `ps`, its phone screening if any). A rule on which of an order's
 * leads may still be delivered belongs in this WHERE clause: only leads of the order's country
 * (allocation chose them so; a lead edited into another country since is not delivered).
 */
export function orderLeadsSql(orderId: string, select: string): string {
  // The lateral subquery (kept apart by OFFSET 0) looks each lead up by primary key, in position
  // order: joined plainly, a 20,000-lead order against a million-row leads table can be planned as
  // a hash or merge join that reads every lead.
  return `SELECT ${select}
    FROM order_leads ol
    CROSS JOIN LATERAL (SELECT * FROM leads WHERE leads.id = ol.lead_id OFFSET 0) l
    LEFT JOIN LATERAL (SELECT * FROM lead_phone_screens WHERE lead_id = l.id OFFSET 0) ps ON true
    WHERE ol.order_id = ${escapeLiteral(orderId)}
      AND l.country = (SELECT location FROM orders WHERE id = ${escapeLiteral(orderId)})
    ORDER BY ol.position`;
}
