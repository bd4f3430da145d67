import "server-only";
import type { Location } from "@/lib/categories/location";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { SELLABLE_SQL } from "@/lib/leads/sellable";
import { segmentSql } from "@/lib/segments/filter";
import type { Segment } from "@/lib/segments/vocabularies";

// Which leads an order may be given (docs/product-rules.md, "Delivery", "Location", "Replacement
// claims" and "Fair allocation"): sellable leads (lib/leads/sellable.ts) of the order's category and
// country, least sold first, then most recently verified, then in a random order stable per order.
// freshLeadsQuery is the one query behind a first allocation and a replacement: a rule on which
// leads an order may get belongs there.

export type FreshLeadFilter = {
  categoryId: string;
  /** The order's country: an order delivers only leads of its location. */
  country: Location;
  /** Leads already delivered in this order are never given to it again. */
  notInOrderId?: string;
  /** Addresses the buyer reported as invalid (lower-cased): never given as their replacements. */
  notEmails?: string[];
  /** The segment the order was bought for (lib/segments): only its leads, first or as replacements. */
  segment?: Segment | null;
  /** The order being served: seeds the random order among equally sold, equally fresh leads. */
  orderId?: string;
  /** Leads the buyer's email bought before (boughtBefore()): never delivered to it again. */
  notIds?: bigint[];
  /** The buyer's exclusion list (lib/suppression), by which kinds it holds: no lead it names. */
  notListed?: { id: string; emails: boolean; domains: boolean } | null;
};

/**
 * The sellable leads of the category and country whose email a paid order of `buyerEmail`
 * delivered, in any category: read once, then passed to freshLeadsQuery as `notIds`, which
 * PostgreSQL hashes. Index walks whatever the statistics say: the buyer's orders and their rows;
 * a lead of this category is itself (one key probe), one of another category is found by one probe
 * of this category's (category, email) key (LIMIT 1 keeps it a probe).
 */
export async function boughtBefore(
  filter: Pick<FreshLeadFilter, "categoryId" | "country" | "segment">,
  buyerEmail: string,
  tx: Tx = db(),
): Promise<bigint[]> {
  // Unqualified facet columns name the leads of this category (l, or the inner lookup's).
  const segment = filter.segment ? segmentSql(filter.segment) : Prisma.sql`true`;
  // One array value, not a row per lead: tens of thousands of ids cross the wire in one piece.
  const [{ ids }] = await tx.$queryRaw<{ ids: bigint[] }[]>`
    WITH delivered AS (
      SELECT o.category_id, ol.lead_id FROM orders o JOIN order_leads ol ON ol.order_id = o.id
       WHERE o.buyer_email = ${buyerEmail} AND o.paid_at IS NOT NULL)
    SELECT coalesce(array_agg(id), '{}') AS ids FROM (
    SELECT l.id FROM delivered d JOIN leads l ON l.id = d.lead_id
     WHERE d.category_id = ${filter.categoryId}::uuid
       AND l.country = ${filter.country}::"Country" AND lead_sellable(l.quarantined_at, l.email_status)
       AND ${segment}
    UNION
    SELECT same.id FROM delivered d JOIN leads bought ON bought.id = d.lead_id
     CROSS JOIN LATERAL (
       SELECT id FROM leads
        WHERE category_id = ${filter.categoryId}::uuid AND email = bought.email
          AND country = ${filter.country}::"Country" AND ${SELLABLE_SQL} AND ${segment}
        LIMIT 1) same
     WHERE d.category_id <> ${filter.categoryId}::uuid) bought`;
  return ids;
}

/** How freshLeadsQuery's rows rank, best first: for positions in an order. */
export const FRESH_ORDER = Prisma.sql`sold, verified_at DESC, shuffle`;

/**
 * Run before freshLeadsQuery in its transaction. A long `notIds` list is hashed, but the planner
 * prices it as compared element by element, so its estimate would call in JIT compilation, which
 * costs more than the whole allocation.
 */
export async function prepareAllocation(tx: Tx): Promise<void> {
  await tx.$executeRaw`SET LOCAL jit = off`;
}

/** Allocates an order's leads once, at its first payment: positions in FRESH_ORDER. */
export function allocationInsert(orderId: string, filter: FreshLeadFilter, limit: number): Prisma.Sql {
  return Prisma.sql`INSERT INTO order_leads (order_id, position, lead_id)
    SELECT ${orderId}::uuid, row_number() OVER (ORDER BY ${FRESH_ORDER}), id
      FROM (${freshLeadsQuery({ ...filter, orderId }, limit)}) AS chosen`;
}

/**
 * `SELECT id, sold, verified_at, shuffle` of at most `limit` sellable leads to embed in a statement
 * (rank them with FRESH_ORDER). Unsold leads come first, read in the category's index order (most
 * recently verified first, the stable random order sorted only within one verified_at), each
 * checked by one probe of lead_sales' key (a subquery, so no join plan can turn it into a scan of
 * the category's sales per lead); reading stops once `limit` are found. The category's sold leads
 * are read (from the narrow lead_sales) only when the unsold ones cannot fill it.
 */
export function freshLeadsQuery(filter: FreshLeadFilter, limit: number): Prisma.Sql {
  const where = [
    Prisma.sql`category_id = ${filter.categoryId}::uuid`,
    Prisma.sql`country = ${filter.country}::"Country"`,
    SELLABLE_SQL,
  ];
  if (filter.notInOrderId) {
    // Hashed once: walking the category's newest leads past the order's own (often all of the
    // first leadCount) then costs one probe of a small hash per lead.
    where.push(
      Prisma.sql`id NOT IN (SELECT lead_id FROM order_leads WHERE order_id = ${filter.notInOrderId}::uuid)`,
    );
  }
  if (filter.notEmails?.length) where.push(Prisma.sql`email <> ALL(${filter.notEmails}::text[])`);
  if (filter.segment) where.push(segmentSql(filter.segment));
  // A constant list: hashed once, one probe per lead walked.
  if (filter.notIds?.length) where.push(Prisma.sql`id <> ALL(${filter.notIds}::bigint[])`);
  // Hashed anti-joins on the list's keys, against the lead's stored email hash and domain: each
  // key set is read and hashed once per statement, then one probe per lead, whatever the plan
  // (a nested-loop NOT EXISTS costs an index probe per lead, a million of them when the planner
  // scans the category). Exact: neither side is ever NULL. None for a kind the list lacks.
  const list = filter.notListed;
  if (list?.emails) {
    where.push(Prisma.sql`leads.email_hash NOT IN (SELECT unnest(email_keys) FROM suppression_lists
      WHERE suppression_lists.id = ${list.id}::uuid)`);
  }
  if (list?.domains) {
    where.push(Prisma.sql`leads.email_domain NOT IN (SELECT unnest(domain_keys) FROM suppression_lists
      WHERE suppression_lists.id = ${list.id}::uuid)`);
  }
  const conditions = Prisma.join(where, " AND ");
  const shuffle = filter.orderId
    ? Prisma.sql`hashint8extended(id, hashtextextended(${filter.orderId}, 0))`
    : Prisma.sql`id`;
  return Prisma.sql`SELECT id, sold, verified_at, shuffle FROM (
    (SELECT id, 0 AS sold, verified_at, ${shuffle} AS shuffle FROM leads
      WHERE ${conditions} AND (SELECT sold FROM lead_sales
        WHERE lead_sales.category_id = ${filter.categoryId}::uuid AND lead_id = leads.id) IS NULL
      ORDER BY verified_at DESC, shuffle LIMIT ${limit}::int)
    UNION ALL
    (SELECT id, sold, verified_at, ${shuffle} AS shuffle
      FROM leads JOIN (SELECT lead_id AS sold_lead_id, sold FROM lead_sales
                        WHERE lead_sales.category_id = ${filter.categoryId}::uuid) sales ON sold_lead_id = id
      WHERE ${conditions}
      ORDER BY sold, verified_at DESC, shuffle LIMIT ${limit}::int)
  ) AS ranked LIMIT ${limit}::int`;
}
