import "server-only";
import { revalidateCatalogue } from "@/lib/categories/cache";
import { afterCommit, db, transaction, type Tx } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { QuarantineCount } from "@/lib/schemas/admin";

// Leads buyers reported invalid in accepted replacement claims (docs/product-rules.md,
// "Replacement claims") wait here, outside their category's count, until the admin releases them
// (sellable again) or deletes them, for a whole category or per claim (lib/orders/claim-review.ts).
// Rows held under the 20% cap are counted here too; they are reviewed per claim.

/** Quarantined leads and held claim rows per category (only categories that have some). */
export async function quarantineCounts(): Promise<QuarantineCount[]> {
  const [quarantined, held] = await Promise.all([
    db().lead.groupBy({
      by: ["categoryId"],
      where: { quarantinedAt: { not: null } },
      _count: { _all: true },
    }),
    db().$queryRaw<{ category_id: string; held: number }[]>`
      SELECT o.category_id, count(*)::int AS held
        FROM replacement_reports rr JOIN orders o ON o.id = rr.order_id
       WHERE rr.held GROUP BY o.category_id`,
  ]);
  const counts = new Map<string, QuarantineCount>();
  const entry = (categoryId: string) =>
    counts.get(categoryId) ??
    counts.set(categoryId, { categoryId, quarantined: 0, held: 0 }).get(categoryId)!;
  for (const group of quarantined) entry(group.categoryId).quarantined = group._count._all;
  for (const row of held) entry(row.category_id).held = row.held;
  return [...counts.values()];
}

/** Locks the category row, so release and delete of its quarantined leads run one at a time. */
export async function lockCategory(tx: Tx, id: string): Promise<void> {
  const locked = await tx.$queryRaw<
    { id: string }[]
  >`SELECT id FROM categories WHERE id = ${id}::uuid FOR UPDATE`;
  if (locked.length === 0) throw notFound("Category not found");
}

type Among = Prisma.LeadWhereInput;

/** Makes the quarantined leads `among` sellable again (the triggers on leads move the counts back). */
export async function releaseAmong(tx: Tx, categoryId: string, among: Among = {}): Promise<number> {
  afterCommit(tx, revalidateCatalogue);
  const { count } = await tx.lead.updateMany({
    where: { ...among, categoryId, quarantinedAt: { not: null } },
    data: { quarantinedAt: null },
  });
  return count;
}

/**
 * Deletes the quarantined leads `among` that no order delivered; those in buyers' files stay there,
 * marked invalid and never sold again (no buyer's file loses rows). The count does not move:
 * quarantined leads had already left it. Answers how many were taken off.
 */
export async function deleteAmong(tx: Tx, categoryId: string, among: Among = {}): Promise<number> {
  afterCommit(tx, revalidateCatalogue);
  const quarantined = { ...among, categoryId, quarantinedAt: { not: null } };
  const sold = await tx.lead.updateMany({
    where: { ...quarantined, orderLeads: { some: {} } },
    data: { emailStatus: "invalid", emailStatusReason: "reported", quarantinedAt: null },
  });
  const { count } = await tx.lead.deleteMany({ where: { ...quarantined, orderLeads: { none: {} } } });
  return sold.count + count;
}

/** Makes the category's quarantined leads sellable again; answers how many. A catalogue change. */
export async function releaseQuarantine(categoryId: string): Promise<number> {
  return transaction(async (tx) => {
    await lockCategory(tx, categoryId);
    return releaseAmong(tx, categoryId);
  });
}

/** Deletes the category's quarantined leads as deleteAmong does. A catalogue change. */
export async function deleteQuarantined(categoryId: string): Promise<number> {
  return transaction(async (tx) => {
    await lockCategory(tx, categoryId);
    return deleteAmong(tx, categoryId);
  });
}
