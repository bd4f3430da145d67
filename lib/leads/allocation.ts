import "server-only";
import type { Location } from "@/lib/categories/location";
import { Prisma } from "@/lib/generated/prisma/client";
import { SELLABLE_SQL } from "@/lib/leads/sellable";
import { segmentSql } from "@/lib/segments/filter";
import type { Segment } from "@/lib/segments/vocabularies";

// Which leads an order may be given (docs/product-rules.md, "Delivery", "Location" and
// "Replacement claims"): sellable leads (lib/leads/sellable.ts) of the order's category and
// country, most recently verified first. freshLeadsQuery is the one query behind a first
// allocation and a replacement: a rule on which leads an order may get belongs there.

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
};

/** `SELECT id, verified_at` of at most `limit` sellable leads, best first, to embed in a statement. */
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
  return Prisma.sql`SELECT id, verified_at FROM leads WHERE ${Prisma.join(where, " AND ")}
    ORDER BY verified_at DESC, id LIMIT ${limit}::int`;
}
