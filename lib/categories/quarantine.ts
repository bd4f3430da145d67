import "server-only";
import { revalidateCatalogue } from "@/lib/categories/cache";
import { afterCommit, db, transaction, type Tx } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { QuarantineCount } from "@/lib/schemas/admin";

// The admin's review of what buyers reported in accepted replacement claims (docs/product-rules.md,
// "Replacement claims"): leads reported by buyers of two or more orders are flagged, and stay on
// sale until the admin keeps them (the flag is cleared) or deletes them, for a whole category or per
// claim (lib/orders/claim-review.ts). Rows held under the 20% cap are counted here too; they are
// reviewed per claim.

/** Flagged leads and held claim rows per category (only categories that have some). */
export async function quarantineCounts(): Promise<QuarantineCount[]> {
  const [flagged, held] = await Promise.all([
    db().lead.groupBy({
      by: ["categoryId"],
      where: { flaggedAt: { not: null } },
      _count: { _all: true },
    }),
    db().$queryRaw<{ category_id: string; held: number }[]>`
      SELECT o.category_id, count(*)::int AS held
        FROM replacement_reports rr JOIN orders o ON o.id = rr.order_id
       WHERE rr.held GROUP BY o.category_id`,
  ]);
  const counts = new Map<string, QuarantineCount>();
  const entry = (categoryId: string) =>
    counts.get(categoryId) ?? counts.set(categoryId, { categoryId, flagged: 0, held: 0 }).get(categoryId)!;
  for (const group of flagged) entry(group.categoryId).flagged = group._count._all;
  for (const row of held) entry(row.category_id).held = row.held;
  return [...counts.values()];
}

/** Locks the category row, so release and delete of its flagged leads run one at a time. */
export async function lockCategory(tx: Tx, id: string): Promise<void> {
  const locked = await tx.$queryRaw<
    { id: string }[]
  >`SELECT id FROM categories WHERE id = ${id}::uuid FOR UPDATE`;
  if (locked.length === 0) throw notFound("Category not found");
}

type Among = Prisma.LeadWhereInput;

/** Keeps the flagged leads `among` on sale: their flag is cleared (they never left the shelf). */
export async function releaseAmong(tx: Tx, categoryId: string, among: Among = {}): Promise<number> {
  const { count } = await tx.lead.updateMany({
    where: { ...among, categoryId, flaggedAt: { not: null } },
    data: { flaggedAt: null },
  });
  return count;
}

/**
 * Takes the flagged leads `among` off the shelf: deleted when no order delivered them; those in
 * buyers' files stay there, marked invalid and never sold again (no buyer's file loses rows). The
 * triggers on leads move the counts. Answers how many were taken off.
 */
export async function deleteAmong(tx: Tx, categoryId: string, among: Among = {}): Promise<number> {
  afterCommit(tx, revalidateCatalogue);
  const flagged = { ...among, categoryId, flaggedAt: { not: null } };
  const sold = await tx.lead.updateMany({
    where: { ...flagged, orderLeads: { some: {} } },
    data: { emailStatus: "invalid", emailStatusReason: "reported", flaggedAt: null },
  });
  const { count } = await tx.lead.deleteMany({ where: { ...flagged, orderLeads: { none: {} } } });
  return sold.count + count;
}

/** Keeps the category's flagged leads on sale, clearing their flags; answers how many. */
export async function releaseQuarantine(categoryId: string): Promise<number> {
  return transaction(async (tx) => {
    await lockCategory(tx, categoryId);
    return releaseAmong(tx, categoryId);
  });
}

/** Takes the category's flagged leads off the shelf as deleteAmong does. A catalogue change. */
export async function deleteQuarantined(categoryId: string): Promise<number> {
  return transaction(async (tx) => {
    await lockCategory(tx, categoryId);
    return deleteAmong(tx, categoryId);
  });
}
