import "server-only";
import { transaction, type Tx } from "@/lib/db";
import { conflict, notFound } from "@/lib/errors";
import { recordEvent } from "@/lib/orders/settle";
import { lockOrder, swapForFresh, type Delivered, type LockedOrder } from "@/lib/orders/replacement/swap";

// The admin's review of the rows a replacement claim held (lib/orders/replacement/claim.ts).

/** A claim of the category, its order locked; 404 for another category's claim. */
async function lockClaimOrder(tx: Tx, categoryId: string, claimId: string): Promise<LockedOrder> {
  const claim = await tx.replacementClaim.findFirst({
    where: { id: BigInt(claimId), order: { categoryId } },
    select: { orderId: true },
  });
  if (!claim) throw notFound("Claim not found");
  return (await lockOrder(tx, claim.orderId))!;
}

const NOTHING_HELD = "This claim has no leads held for review.";

/**
 * The admin's review of a claim's held rows, approved: they are swapped for fresh leads as the
 * claim's own were. Rows the category cannot fill stay held. Answers both numbers.
 */
export async function replaceHeld(
  categoryId: string,
  claimId: string,
): Promise<{ replaced: number; stillHeld: number }> {
  return transaction(async (tx) => {
    const order = await lockClaimOrder(tx, categoryId, claimId);
    const held = await tx.$queryRaw<Delivered[]>`
      SELECT ol.position, ol.lead_id, l.email, l.email_status::text, l.provider_checked_at
        FROM replacement_reports rr
        JOIN order_leads ol ON ol.order_id = rr.order_id AND ol.lead_id = rr.lead_id
        JOIN leads l ON l.id = rr.lead_id
       WHERE rr.claim_id = ${BigInt(claimId)} AND rr.held
       ORDER BY ol.position`;
    if (held.length === 0) throw conflict(NOTHING_HELD);
    const reported = await tx.$queryRaw<{ email: string }[]>`
      SELECT l.email FROM replacement_reports rr JOIN leads l ON l.id = rr.lead_id
       WHERE rr.claim_id = ${BigInt(claimId)}`;
    const swapped = await swapForFresh(
      tx,
      order,
      held,
      reported.map((row) => row.email),
    );
    await tx.replacementReport.updateMany({
      where: { claimId: BigInt(claimId), leadId: { in: swapped.map((row) => row.lead_id) } },
      data: { held: false, replaced: true },
    });
    await tx.replacementClaim.update({
      where: { id: BigInt(claimId) },
      data: { replaced: { increment: swapped.length } },
      select: { id: true },
    });
    const stillHeld = held.length - swapped.length;
    await recordEvent(
      tx,
      order.id,
      "replacement",
      `Held leads reviewed: ${swapped.length} replaced${stillHeld ? `, ${stillHeld} still held (the category ran short)` : ""}`,
    );
    return { replaced: swapped.length, stillHeld };
  });
}

/** The admin's review of a claim's held rows, declined: they stay as delivered. Answers how many. */
export async function declineHeld(categoryId: string, claimId: string): Promise<number> {
  return transaction(async (tx) => {
    const order = await lockClaimOrder(tx, categoryId, claimId);
    const { count } = await tx.replacementReport.updateMany({
      where: { claimId: BigInt(claimId), held: true },
      data: { held: false },
    });
    if (count === 0) throw conflict(NOTHING_HELD);
    await tx.replacementClaim.update({
      where: { id: BigInt(claimId) },
      data: { declined: { increment: count } },
      select: { id: true },
    });
    await recordEvent(tx, order.id, "replacement", `Held leads reviewed: ${count} declined, not replaced`);
    return count;
  });
}
