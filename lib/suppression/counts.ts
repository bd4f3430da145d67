import "server-only";
import type { Location } from "@/lib/location";
import { findCategory } from "@/lib/categories/public";
import { transaction } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { boughtIds } from "@/lib/leads/allocation";
import type { Caller } from "@/lib/limits/caller";
import { PACKAGES } from "@/lib/packages";
import type { ListAvailability } from "@/lib/schemas/suppression";
import { segmentCounts } from "@/lib/segments/counts";
import { segmentSql } from "@/lib/segments/filter";
import type { Segment } from "@/lib/segments/vocabularies";
import { ownedList, type OwnedList } from "@/lib/suppression/lists";

// What an exclusion list removes from a category (docs/product-rules.md, "Exclusion lists"): its
// sellable leads of one country (and segment) whose email hash or email domain the list holds.

export type ListScope = { categoryId: string; country: Location; segment: Segment | null };

/**
 * The leads of the scope the list matches, each once; those `boughtBy` bought before (counted
 * apart; boughtIds(), hashed once per statement) are left out. Each entry probes the category's
 * leads by the index on its kind (email_hash, email_domain), a LATERAL subquery apiece so that no
 * plan scans the category instead: the list's size sets the cost, never the category's. No LIMIT
 * (an email is at most one lead of a category anyway, its unique key): with one, a planner short
 * of statistics walks the category's date index hoping to meet the email early. The
 * planner prices 100,000 probes high enough to compile them (JIT), which costs more than they do.
 */
export async function listedLeads(list: OwnedList, scope: ListScope, boughtBy?: string): Promise<number> {
  // Unqualified facet columns name the lead's: the list tables have none.
  const where = Prisma.sql`l.country = ${scope.country}::"Country"
    AND lead_sellable(l.quarantined_at, l.email_status)
    AND ${scope.segment ? segmentSql(scope.segment) : Prisma.sql`true`}
    AND ${boughtBy ? Prisma.sql`l.id NOT IN (${boughtIds(scope.categoryId, boughtBy)})` : Prisma.sql`true`}`;
  const branches: Prisma.Sql[] = [];
  if (list.emails) {
    branches.push(Prisma.sql`SELECT hit.id FROM suppression_lists s
      CROSS JOIN LATERAL unnest(s.email_keys) AS e(email_hash)
      CROSS JOIN LATERAL (
        SELECT l.id FROM leads l
         WHERE l.category_id = ${scope.categoryId}::uuid AND l.email_hash = e.email_hash AND ${where}) hit
       WHERE s.id = ${list.id}::uuid`);
  }
  if (list.domains) {
    branches.push(Prisma.sql`SELECT hit.id FROM suppression_lists s
      CROSS JOIN LATERAL unnest(s.domain_keys) AS d(domain)
      CROSS JOIN LATERAL (
        SELECT l.id FROM leads l
         WHERE l.category_id = ${scope.categoryId}::uuid AND l.email_domain = d.domain AND ${where}) hit
       WHERE s.id = ${list.id}::uuid`);
  }
  if (branches.length === 0) return 0;
  return transaction(async (tx) => {
    await tx.$executeRaw`SET LOCAL jit = off`;
    const [{ n }] = await tx.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM (${Prisma.join(branches, " UNION ")}) AS listed`;
    return n;
  });
}

/** The category's leads in the scope, how many the caller's list removes, and the packages left. */
export async function listAvailability(
  id: string,
  caller: Caller,
  query: { categoryId: string; location: Location; segment: Segment | null },
): Promise<ListAvailability> {
  const list = await ownedList(id, caller);
  const category = await findCategory(query.categoryId);
  if (!category) throw notFound("Category not found");
  const count = query.segment
    ? (await segmentCounts(category._id, query.location, query.segment)).count
    : category.countByLocation[query.location];
  const removed = await listedLeads(list, {
    categoryId: category._id,
    country: query.location,
    segment: query.segment,
  });
  const remaining = count - removed;
  return {
    count,
    removed,
    remaining,
    packages: Object.fromEntries(
      PACKAGES.map((pkg) => [pkg.id, { leadCount: pkg.leadCount, available: remaining >= pkg.leadCount }]),
    ) as ListAvailability["packages"],
  };
}
