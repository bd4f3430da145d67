import "server-only";
import type { Location } from "@/lib/location";
import { findCategory } from "@/lib/categories/public";
import type { Tx } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { inScope, notBoughtSql, type LeadScope } from "@/lib/leads/eligible";
import type { Caller } from "@/lib/limits/caller";
import { timedQuery, withQueryPermit } from "@/lib/limits/expensive-queries";
import { assertWithinLimit } from "@/lib/limits/throttle";
import { PACKAGES } from "@/lib/packages";
import type { ListAvailability } from "@/lib/schemas/suppression";
import { segmentCounts } from "@/lib/segments/counts";
import type { Segment } from "@/lib/segments/vocabularies";
import type { EmailQuality } from "@/lib/email-quality";
import { ownedList, type OwnedList } from "@/lib/suppression/lists";

// What an exclusion list removes from a category (docs/product-rules.md, "Exclusion lists"): the
// leads an order of the scope may receive (lib/leads/eligible.ts) whose email hash or email domain
// the list holds.
// Before payment a visitor learns only whether each package can still be filled: the number
// removed would tell whether one address is in our data (a one-address list), so it is told only
// with the receipt and on the order page.

/** Checks of what a list leaves (availability, and orders with a list) per client address and per list. */
export const LIST_CHECKS_PER_ADDRESS = { max: 30, windowSeconds: 600 };
export const LIST_CHECKS_PER_LIST = { max: 20, windowSeconds: 600 };

/** Counts a check by the caller's address: 429 with Retry-After past 30 in 10 minutes. */
export async function countAddressCheck(caller: Caller): Promise<void> {
  await assertWithinLimit(
    { bucket: `list-check:${caller.clientIp}`, ...LIST_CHECKS_PER_ADDRESS },
    "Too many checks of exclusion lists from your address. Please try again in a few minutes.",
  );
}

/** Counts a check of one list: 429 with Retry-After past 20 in 10 minutes. */
export async function countListCheck(list: OwnedList): Promise<void> {
  await assertWithinLimit(
    { bucket: `list-check-list:${list.id}`, ...LIST_CHECKS_PER_LIST },
    "This exclusion list was checked too often. Please try again in a few minutes.",
  );
}

/**
 * The leads of the scope the list matches, each once; those `boughtBy` bought before (counted
 * apart; boughtIds(), hashed once per statement) are left out. Each entry probes the category's
 * leads by the index on its kind (email_hash, email_domain), a LATERAL subquery apiece so that no
 * plan scans the category instead: the list's size sets the cost, never the category's. No LIMIT
 * (an email is at most one lead of a category anyway, its unique key): with one, a planner short
 * of statistics walks the category's date index hoping to meet the email early. The
 * planner prices 100,000 probes high enough to compile them (JIT), which costs more than they do.
 */
export async function listedLeads(
  tx: Tx,
  list: OwnedList,
  scope: LeadScope,
  boughtBy?: string,
): Promise<number> {
  // Unqualified columns name the lead's: the innermost query reads only leads.
  const where = boughtBy
    ? Prisma.sql`${inScope(scope)} AND ${notBoughtSql(scope.categoryId, boughtBy)}`
    : inScope(scope);
  const branches: Prisma.Sql[] = [];
  if (list.emails) {
    branches.push(Prisma.sql`SELECT hit.id FROM suppression_lists s
      CROSS JOIN LATERAL unnest(s.email_keys) AS e(email_hash)
      CROSS JOIN LATERAL (
        SELECT l.id FROM leads l WHERE l.email_hash = e.email_hash AND ${where}) hit
       WHERE s.id = ${list.id}::uuid`);
  }
  if (list.domains) {
    branches.push(Prisma.sql`SELECT hit.id FROM suppression_lists s
      CROSS JOIN LATERAL unnest(s.domain_keys) AS d(domain)
      CROSS JOIN LATERAL (
        SELECT l.id FROM leads l WHERE l.email_domain = d.domain AND ${where}) hit
       WHERE s.id = ${list.id}::uuid`);
  }
  if (branches.length === 0) return 0;
  await tx.$executeRaw`SET LOCAL jit = off`;
  const [{ n }] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (${Prisma.join(branches, " UNION ")}) AS listed`;
  return n;
}

/**
 * Per package, whether the category's leads in the scope still fill it once the caller's list is
 * left out (the figures themselves stay unsaid before payment). Limits are counted first, the
 * per-address one before the list is even looked up.
 */
export async function listAvailability(
  id: string,
  caller: Caller,
  query: { categoryId: string; location: Location; segment: Segment | null; emailQuality: EmailQuality },
): Promise<ListAvailability> {
  // The permit is held from the first limit on (lib/limits/expensive-queries.ts).
  const remaining = await withQueryPermit(caller.clientIp, async () => {
    await countAddressCheck(caller);
    const list = await ownedList(id, caller);
    await countListCheck(list);
    const category = await findCategory(query.categoryId);
    if (!category) throw notFound("Category not found");
    const count =
      query.segment || query.emailQuality !== "any"
        ? (await segmentCounts(category._id, query.location, query.segment, query.emailQuality)).count
        : category.countByLocation[query.location];
    // A scope too small for the smallest package (starter) needs no count.
    if (count < PACKAGES[0].leadCount) return count;
    const scope = {
      categoryId: category._id,
      country: query.location,
      segment: query.segment,
      emailQuality: query.emailQuality,
    };
    return count - (await timedQuery((tx) => listedLeads(tx, list, scope)));
  });
  return {
    packages: Object.fromEntries(
      PACKAGES.map((pkg) => [pkg.id, { leadCount: pkg.leadCount, available: remaining >= pkg.leadCount }]),
    ) as ListAvailability["packages"],
  };
}
