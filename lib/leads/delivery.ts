import "server-only";
import { pool } from "@/lib/db";
import type { PackageId } from "@/lib/packages";

// What a paid order delivers: its allocated leads in allocation order, with the columns its
// package includes (decisions.md section 3). Rows are read in keyset batches so a 20,000-lead
// download never sits in memory at once.

/** One lead's cells, in the order of its package's columns (null for an empty cell). */
export type DeliveryRow = (string | null)[];
export type Column = { key: string; header: string };

const STARTER: Column[] = [
  { key: "first_name", header: "First Name" },
  { key: "last_name", header: "Last Name" },
  { key: "job_title", header: "Title" },
  { key: "company", header: "Company" },
  { key: "email", header: "Email" },
  { key: "phone", header: "Phone" },
  { key: "city", header: "City" },
  { key: "state", header: "State" },
  { key: "country", header: "Country" },
];
const STANDARD: Column[] = [
  ...STARTER,
  { key: "profile_url", header: "Profile URL" },
  { key: "industry", header: "Industry" },
  { key: "company_size", header: "Company Size" },
];
const PREMIUM: Column[] = [
  ...STANDARD,
  { key: "seniority", header: "Seniority" },
  { key: "department", header: "Department" },
  { key: "company_website", header: "Company Website" },
  { key: "company_revenue", header: "Company Revenue" },
  { key: "verified_at", header: "Verified At" },
];

export const PACKAGE_COLUMNS: Record<PackageId, Column[]> = {
  starter: STARTER,
  standard: STANDARD,
  premium: PREMIUM,
};

const BATCH_SIZE = 2000;

function selectList(columns: Column[]): string {
  // Column keys come from the fixed table above, never from input.
  return columns
    .map(({ key }) =>
      key === "verified_at"
        ? `to_char(l.verified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS verified_at`
        : key === "country"
          ? "l.country::text AS country"
          : `l.${key}`,
    )
    .join(", ");
}

type Batch = { rows: DeliveryRow[]; last: number; full: boolean };

async function readBatch(orderId: string, select: string, after: number): Promise<Batch> {
  // Two steps on purpose: a join of order_leads with a million-row leads table can be planned as a
  // hash join over all leads; looking the batch's ids up by primary key never is.
  const ids = await pool().query<[number, string]>({
    text: `SELECT position, lead_id FROM order_leads WHERE order_id = $1 AND position > $2
           ORDER BY position LIMIT ${BATCH_SIZE}`,
    values: [orderId, after],
    rowMode: "array",
  });
  if (ids.rows.length === 0) return { rows: [], last: after, full: false };
  // Rows as arrays, not objects: with 17 columns and 20,000 rows, building keyed objects is a
  // measurable share of a download's time.
  const { rows } = await pool().query<[string, ...DeliveryRow]>({
    text: `SELECT l.id, ${select} FROM leads l WHERE l.id = ANY($1::bigint[])`,
    values: [ids.rows.map(([, leadId]) => leadId)],
    rowMode: "array",
  });
  const byId = new Map(rows.map(([id, ...cells]) => [id, cells]));
  return {
    rows: ids.rows.map(([, leadId]) => byId.get(leadId)).filter((row) => row !== undefined),
    last: ids.rows[ids.rows.length - 1][0],
    full: ids.rows.length === BATCH_SIZE,
  };
}

/**
 * The order's leads, in allocation order, as text in column order, a batch at a time. The next
 * batch is read while the current one is being written out, so the database and the encoder overlap.
 */
export async function* orderLeadBatches(orderId: string, columns: Column[]): AsyncGenerator<DeliveryRow[]> {
  const select = selectList(columns);
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
