import "server-only";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import {
  boughtElsewhere,
  boughtElsewhereByEach,
  inScope,
  notBoughtSql,
  notListedConditions,
  scopeConditions,
  type LeadScope,
  type ListKeys,
} from "@/lib/leads/eligible";
import { SELLABLE_SQL } from "@/lib/leads/sellable";
import { FACETS, UNKNOWN } from "@/lib/segments/vocabularies";

// How an order's leads are chosen (docs/product-rules.md, "Delivery" and "Fair allocation"): of
// the leads it may receive (lib/leads/eligible.ts), least sold first, then most recently verified,
// then in a random order stable per order. freshLeadsQuery is the one query behind a first
// allocation and a replacement; which leads qualify at all is eligible.ts's.

export type FreshLeadFilter = LeadScope & {
  /** Leads already delivered in this order are never given to it again. */
  notInOrderId?: string;
  /** Addresses the buyer reported as invalid (lower-cased): never given as their replacements. */
  notEmails?: string[];
  /** The order being served: seeds the random order among equally sold, equally fresh leads. */
  orderId?: string;
  /** The order's buyer email: what it bought before (boughtIds()) is never delivered to it again. */
  boughtBy?: string;
  /** The buyer's exclusion list (lib/suppression): no lead it names. */
  notListed?: ListKeys | null;
};

/**
 * Whether an earlier order `o` vouches for its leads being of this filter's country and segment: it
 * delivered only leads of its location and segment (freshLeadsQuery), and a lead's country and
 * known facet values never change (`unknown` may become known when a migration reads more
 * spellings), so it does when its location is this country and its segment narrows each facet
 * this one narrows to some of the same known values.
 */
function vouchedBy(filter: LeadScope): Prisma.Sql {
  // A lead's email status changes with every check: no earlier order vouches for it.
  if (filter.emailQuality && filter.emailQuality !== "any") return Prisma.sql`false`;
  const narrowed = FACETS.flatMap((facet) => {
    const values = filter.segment?.[facet];
    if (!values?.length) return [];
    const earlier = Prisma.sql`o.segment -> ${facet}::text`;
    const known = values.filter((value) => value !== UNKNOWN);
    return [Prisma.sql`jsonb_array_length(${earlier}) > 0 AND ${earlier} <@ ${JSON.stringify(known)}::jsonb`];
  });
  const conditions = [Prisma.sql`o.location = ${filter.country}::"Country"`, ...narrowed];
  return Prisma.sql`coalesce(${Prisma.join(conditions, " AND ")}, false)`;
}

/**
 * How many of the leads freshLeadsQuery could give an order of `filter` (in its scope:
 * lib/leads/eligible.ts) `buyerEmail` bought before, in any category: the availability create counts, kept
 * as the order's `excluded_bought` (the figure the buyer saw; the allocation leaves them out anyway).
 * Without reading the bought leads' wide rows where their orders vouch for them (vouchedBy()): the
 * small index of unsellable leads says which of those no longer sell. The others are read, one key
 * probe each, in the key's order.
 */
export async function countBoughtBefore(
  filter: LeadScope,
  buyerEmail: string,
  tx: Tx = db(),
): Promise<number> {
  const { categoryId } = filter;
  const [{ count }] = await tx.$queryRaw<{ count: number }[]>`
    WITH bought AS MATERIALIZED (
      SELECT ol.lead_id AS id, ${vouchedBy(filter)} AS vouched
        FROM orders o JOIN order_leads ol ON ol.order_id = o.id
       WHERE o.buyer_email = ${buyerEmail} AND o.paid_at IS NOT NULL AND o.category_id = ${categoryId}::uuid
      UNION ALL SELECT id, false FROM (${boughtElsewhere(categoryId, buyerEmail)}) AS elsewhere)
    SELECT ((SELECT count(DISTINCT id) FROM bought WHERE vouched AND NOT EXISTS (
               SELECT 1 FROM leads WHERE category_id = ${categoryId}::uuid AND leads.id = bought.id
                 AND NOT ${SELLABLE_SQL}))
          + (SELECT count(*) FROM leads
              WHERE id = ANY(ARRAY(SELECT id FROM bought WHERE NOT vouched AND NOT EXISTS (
                      SELECT 1 FROM bought AS also WHERE also.vouched AND also.id = bought.id)))
                AND ${inScope(filter)}))::int AS count`;
  return count;
}

/** How freshLeadsQuery's rows rank, best first: for positions in an order. */
export const FRESH_ORDER = Prisma.sql`sold, verified_at DESC, shuffle`;

/**
 * Run before freshLeadsQuery in its transaction. It waits for the category's other allocations
 * (first deliveries and replacements) to end: two at once would both take the same unsold leads,
 * each unaware of the other's. Held to the transaction's end; the statements after it see the
 * earlier ones' rows (READ COMMITTED). Its `NOT IN (subquery)` exclusions must be hashed
 * (built once, one probe per lead walked): the planner hashes one only when its estimated size fits
 * hash memory and otherwise rereads the whole subquery for every lead, so hash memory is raised
 * for the transaction. Parallel workers would each build the hashes again, and JIT compilation
 * would cost more than the whole allocation.
 */
export async function prepareAllocation(tx: Tx, categoryId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`allocation:${categoryId}`}, 0)),
    set_config('jit', 'off', true), set_config('hash_mem_multiplier', '64', true),
    set_config('max_parallel_workers_per_gather', '0', true)`;
}

/** Allocates an order's leads once, at its first payment: positions in FRESH_ORDER. */
export function allocationInsert(orderId: string, filter: FreshLeadFilter, limit: number): Prisma.Sql {
  return Prisma.sql`INSERT INTO order_leads (order_id, position, lead_id)
    SELECT ${orderId}::uuid, row_number() OVER (ORDER BY ${FRESH_ORDER}), id
      FROM (${freshLeadsQuery({ ...filter, orderId }, limit)}) AS chosen`;
}

/** The conditions beyond its scope that a lead given to the order meets: the order's own exclusions. */
function orderConditions(filter: FreshLeadFilter): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (filter.notInOrderId) {
    // Hashed once: walking the category's newest leads past the order's own (often all of the
    // first leadCount) then costs one probe of a small hash per lead.
    where.push(
      Prisma.sql`id NOT IN (SELECT lead_id FROM order_leads WHERE order_id = ${filter.notInOrderId}::uuid)`,
    );
  }
  if (filter.notEmails?.length) where.push(Prisma.sql`email <> ALL(${filter.notEmails}::text[])`);
  where.push(...notListedConditions(filter.notListed));
  return where;
}

/** The stable random order among equally sold, equally fresh leads: a hash of the id seeded by the order. */
function shuffleOf(filter: FreshLeadFilter): Prisma.Sql {
  return filter.orderId
    ? Prisma.sql`hashint8extended(id, hashtextextended(${filter.orderId}, 0))`
    : Prisma.sql`id`;
}

/**
 * `SELECT id, sold, verified_at, shuffle` of at most `limit` leads the order may receive
 * (lib/leads/eligible.ts) to embed in a statement
 * (rank them with FRESH_ORDER). Unsold leads come first: unsold_leads' (category, country,
 * verified_at) index is walked, most recently verified first, so the walk never passes a sold lead
 * (the most recently verified are the ones sold first: walking all of the category's leads would
 * pass most of its sold ones, a cost that grew with its sales). Each lead walked is read by its
 * key (LIMIT 1: one probe whatever the statistics say) for the other conditions; the stable random
 * order is sorted only within one verified_at; reading stops once `limit` are found. The
 * category's sold leads are read (from the narrow lead_sales) only when the unsold ones cannot
 * fill it. What the buyer bought in this category is sold, so the unsold leads need only the check
 * against what it bought elsewhere.
 */
export function freshLeadsQuery(filter: FreshLeadFilter, limit: number): Prisma.Sql {
  const conditions = Prisma.join([...scopeConditions(filter), ...orderConditions(filter)], " AND ");
  const { categoryId, boughtBy } = filter;
  const notElsewhere = boughtBy
    ? Prisma.sql`AND lead_id NOT IN (${boughtElsewhere(categoryId, boughtBy)})`
    : Prisma.empty;
  const notBought = boughtBy ? Prisma.sql`AND ${notBoughtSql(categoryId, boughtBy)}` : Prisma.empty;
  const shuffle = shuffleOf(filter);
  return Prisma.sql`SELECT id, sold, verified_at, shuffle FROM (
    (SELECT id, 0 AS sold, verified_at, ${shuffle} AS shuffle
      FROM (SELECT lead_id AS walked, verified_at AS walked_at FROM unsold_leads
             WHERE category_id = ${categoryId}::uuid AND country = ${filter.country}::"Country" ${notElsewhere}) AS walk
      CROSS JOIN LATERAL (SELECT * FROM leads WHERE id = walk.walked LIMIT 1) AS leads
      WHERE ${conditions}
      ORDER BY walk.walked_at DESC, shuffle LIMIT ${limit}::int)
    UNION ALL
    (SELECT id, sold, verified_at, ${shuffle} AS shuffle
      FROM leads JOIN (SELECT lead_id AS sold_lead_id, sold FROM lead_sales
                        WHERE lead_sales.category_id = ${categoryId}::uuid) sales ON sold_lead_id = id
      WHERE ${conditions} ${notBought}
      ORDER BY sold, verified_at DESC, shuffle LIMIT ${limit}::int)
  ) AS ranked LIMIT ${limit}::int`;
}

/** One order of unsoldLeadsQuery: its filter (of the query's scope) and how many of its best it wants. */
export type UnsoldWanted = { filter: FreshLeadFilter; limit: number };

/**
 * `SELECT idx, ids` of the best unsold leads of each of several orders of one scope, in one
 * statement: for each order with any (`idx`, its place in `orders`) at most its `limit`, best
 * first as freshLeadsQuery ranks unsold leads for it, as one array. The walk of unsold_leads and
 * what the buyers bought elsewhere are read once for all: the scope's unsold leads,
 * most recently verified first, as far as the first `depth` and every lead verified at the same
 * time as the last of them (so each order's stable random order sorts whole verified_at groups).
 * Each order then filters those by its own conditions. An order given fewer than its limit has no
 * more among them: its next best lie beyond `depth`, or among the sold leads (freshLeadsQuery
 * finds them).
 */
export function unsoldLeadsQuery(scope: LeadScope, orders: UnsoldWanted[], depth: number): Prisma.Sql {
  const { categoryId, country } = scope;
  const buyers = orders.flatMap(({ filter }) => (filter.boughtBy ? [filter.boughtBy] : []));
  const each = orders.map(({ filter, limit }, idx) => {
    const where = orderConditions(filter);
    // Bought in this category means sold: only what the buyer bought elsewhere is left to skip.
    if (filter.boughtBy) {
      where.push(Prisma.sql`id NOT IN (SELECT id FROM elsewhere WHERE buyer_email = ${filter.boughtBy})`);
    }
    return Prisma.sql`(SELECT ${idx}::int AS idx, id, row_number() OVER (ORDER BY ${FRESH_ORDER}) AS rank
        FROM (SELECT id, 0 AS sold, verified_at, ${shuffleOf(filter)} AS shuffle FROM unsold AS leads
               ${where.length ? Prisma.sql`WHERE ${Prisma.join(where, " AND ")}` : Prisma.empty}) AS ranked
       ORDER BY ${FRESH_ORDER} LIMIT ${limit}::int)`;
  });
  return Prisma.sql`WITH unsold AS MATERIALIZED (
      SELECT leads.id, leads.verified_at, leads.email, leads.email_hash, leads.email_domain
        FROM (SELECT lead_id AS walked, verified_at AS walked_at FROM unsold_leads
               WHERE category_id = ${categoryId}::uuid AND country = ${country}::"Country") AS walk
        CROSS JOIN LATERAL (SELECT * FROM leads WHERE id = walk.walked LIMIT 1) AS leads
       WHERE ${inScope(scope)}
       ORDER BY walk.walked_at DESC FETCH FIRST (${depth}::int) ROWS WITH TIES),
    elsewhere AS MATERIALIZED (${boughtElsewhereByEach(categoryId, buyers)})
    SELECT idx, array_agg(id ORDER BY rank) AS ids FROM (${Prisma.join(each, " UNION ALL ")}) AS best GROUP BY idx`;
}
