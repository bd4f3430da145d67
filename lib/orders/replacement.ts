import "server-only";
import { adminEmail } from "@/lib/auth/admin-account";
import { db, transaction, type Tx } from "@/lib/db";
import { AppError, conflict, notFound } from "@/lib/errors";
import type { EmailQuality } from "@/lib/email-quality";
import type { Location } from "@/lib/location";
import type { Segment } from "@/lib/segments/vocabularies";
import {
  FRESH_ORDER,
  freshLeadsQuery,
  prepareAllocation,
  type FreshLeadFilter,
} from "@/lib/leads/allocation";
import { assertClaimAttemptLeft, bookClaimAttempt } from "@/lib/orders/claim-attempts";
import { checkReported, type ReportedLead, type Verdict } from "@/lib/orders/claim-checks";
import { queueMail } from "@/lib/mail/outbox";
import { shortfallMail } from "@/lib/orders/mails";
import { findByKey } from "@/lib/orders/access";
import type { OrderView } from "@/lib/orders/view";
import type { Caller } from "@/lib/limits/caller";
import { recordEvent } from "@/lib/orders/settle";
import { orderList } from "@/lib/suppression/lists";
import { normalizeEmail } from "@/lib/mail/address";
import { getNotificationRecipient } from "@/lib/settings";
import {
  REPLACEMENT_DAYS,
  REPLACEMENT_THRESHOLD_PERCENT,
  UNCONFIRMED_REPLACEMENT_PERCENT,
  replacementThreshold,
  type ReplacementAnswer,
} from "@/lib/schemas/orders";

// Free replacement of invalid leads (docs/product-rules.md, "Replacement claims"). The holder of a
// paid order's download key reports addresses, at most 3 claims an order a day; those delivered in
// the order are checked again (lib/orders/claim-checks.ts), unless already invalid (then they stay
// so). Invalid ones count, are replaced and stop being sellable to anyone; ones the provider
// confirms deliverable do not count; the others (catch-all, unknown, unanswered) count on the
// buyer's word. When more than 5% count, their rows are swapped (same positions) for fresh leads:
// every invalid one, and of the others at most 20% of the order's rows; the rest is held for the
// admin's review. Buyers' reports never take a lead off sale for others: once buyers of two
// different orders have reported one, it is flagged for the admin's review. The order row is
// locked for the whole claim, so of two simultaneous claims one is accepted.

export type LockedOrder = {
  id: string;
  category_id: string;
  lead_title: string;
  package_type: string;
  lead_count: number;
  location: Location;
  segment: Segment | null;
  email_quality: EmailQuality;
  paid_at: Date | null;
  buyer_email: string | null;
  suppression_list_id: string | null;
};

export type Delivered = ReportedLead & { position: number };

const DAY_MS = 24 * 3600 * 1000;

function windowClosed(order: LockedOrder, now: Date): string | null {
  if (now.getTime() > order.paid_at!.getTime() + REPLACEMENT_DAYS * DAY_MS) {
    return `Replacement claims can be filed within ${REPLACEMENT_DAYS} days of payment; this order's window has closed.`;
  }
  return null;
}

function refusal(
  counted: number,
  notInOrder: number,
  threshold: number,
  leadCount: number,
  deliverable = 0,
): AppError {
  const n = (value: number) => value.toLocaleString("en-US");
  const others = notInOrder ? `; ${n(notInOrder)} ${notInOrder === 1 ? "was" : "were"} not` : "";
  const confirmed = deliverable
    ? ` ${n(deliverable)} of them ${deliverable === 1 ? "was" : "were"} confirmed deliverable by the verification provider and ${deliverable === 1 ? "does" : "do"} not count.`
    : "";
  return new AppError(
    422,
    `Free replacement applies when more than ${REPLACEMENT_THRESHOLD_PERCENT}% of an order's leads are invalid (more than ${n(threshold)} of ${n(leadCount)}). ${n(counted + deliverable)} of the reported addresses ${counted + deliverable === 1 ? "was" : "were"} delivered in this order${others}.${confirmed}`,
  );
}

/** The order's delivered rows among the reported addresses (the category's unique key, joined with its rows). */
function deliveredAmong(
  tx: Tx | ReturnType<typeof db>,
  orderId: string,
  categoryId: string,
  reported: string[],
) {
  return tx.$queryRaw<Delivered[]>`
    SELECT ol.position, ol.lead_id, l.email, l.email_status::text, l.provider_checked_at
      FROM leads l JOIN order_leads ol ON ol.lead_id = l.id AND ol.order_id = ${orderId}::uuid
     WHERE l.category_id = ${categoryId}::uuid AND l.email = ANY(${reported}::text[])
     ORDER BY ol.position`;
}

/** The admin hears about a shortfall even with sale notifications off: a buyer is owed leads. */
async function queueShortfallMail(tx: Tx, order: LockedOrder, shortfall: number, replaced: number) {
  const to = (await getNotificationRecipient(tx)) ?? (await adminEmail(tx));
  if (to) await queueMail(shortfallMail(to, order, shortfall, replaced), tx, "replacement-shortfall");
}

/** Replacements obey the order's allocation rules, and never repeat its leads or the reported ones. */
async function replacementFilter(tx: Tx, order: LockedOrder, reported: string[]): Promise<FreshLeadFilter> {
  return {
    categoryId: order.category_id,
    country: order.location,
    segment: order.segment,
    emailQuality: order.email_quality,
    notInOrderId: order.id,
    notEmails: reported,
    orderId: order.id,
    ...(order.buyer_email ? { boughtBy: order.buyer_email } : {}),
    notListed: await orderList(tx, order.suppression_list_id),
  };
}

/** Locks the order row for a claim or its review: one change to its rows at a time. */
export async function lockOrder(tx: Tx, id: string): Promise<LockedOrder | undefined> {
  const [order] = await tx.$queryRaw<LockedOrder[]>`
    SELECT id, category_id, lead_title, package_type::text, lead_count, location::text, segment,
           email_quality::text, paid_at,
           buyer_email, suppression_list_id
      FROM orders WHERE id = ${id}::uuid FOR UPDATE`;
  return order;
}

/**
 * Swaps the rows for fresh leads in place (same positions), never one of `reported`; answers the
 * swapped rows (fewer than asked when the category runs short). Claims, the admin's review and
 * files that heal (lib/orders/heal.ts) all swap through here.
 */
export async function swapForFresh(
  tx: Tx,
  order: LockedOrder,
  rows: Delivered[],
  reported: string[],
): Promise<Delivered[]> {
  const filter = await replacementFilter(tx, order, reported);
  await prepareAllocation(tx, order.category_id);
  const fresh = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM (${freshLeadsQuery(filter, rows.length)}) AS fresh
     ORDER BY ${FRESH_ORDER}`;
  const swapped = rows.slice(0, fresh.length);
  await tx.$executeRaw`
    UPDATE order_leads ol SET lead_id = swap.lead_id
      FROM unnest(${swapped.map((row) => row.position)}::int[], ${fresh.map((row) => row.id)}::bigint[])
           AS swap(position, lead_id)
     WHERE ol.order_id = ${order.id}::uuid AND ol.position = swap.position`;
  return swapped;
}

type ClaimableOrder = Pick<OrderView, "id" | "categoryId" | "leadCount"> & { paidAt: Date };

/**
 * The paid order a claim's key names, or 404 (an unknown key costs the caller an unknown lookup),
 * or 429 once it has had its 3 claims in 24 hours: asked before the claim's body is read, and
 * before any locking.
 */
export async function claimableOrder(key: string, caller: Caller, now = new Date()): Promise<ClaimableOrder> {
  const known = await findByKey(key, caller);
  if (!known?.paidAt) throw notFound("Order not found");
  await assertClaimAttemptLeft(known.id, now);
  return { ...known, paidAt: known.paidAt };
}

/** Files a claim for a paid order (claimableOrder); throws the 404/410/409/422 of the rules. */
export async function claimReplacement(
  known: ClaimableOrder,
  reportedAddresses: string[],
  now = new Date(),
): Promise<ReplacementAnswer> {
  const reported = [...new Set(reportedAddresses.map(normalizeEmail))];
  await bookClaimAttempt(known.id, now);

  // Refusals that need no check come first, so the provider is asked only about a claim that can
  // be accepted; they are asked again under the lock.
  const threshold = replacementThreshold(known.leadCount);
  const [claimed, before] = await Promise.all([
    db().replacementClaim.findUnique({ where: { orderId: known.id }, select: { id: true } }),
    deliveredAmong(db(), known.id, known.categoryId, reported),
  ]);
  if (claimed)
    throw conflict("A replacement was already granted for this order; each order can be replaced once.");
  if (now.getTime() > known.paidAt.getTime() + REPLACEMENT_DAYS * DAY_MS) {
    throw new AppError(
      410,
      `Replacement claims can be filed within ${REPLACEMENT_DAYS} days of payment; this order's window has closed.`,
    );
  }
  if (before.length <= threshold) {
    const inOrder = new Set(before.map((row) => row.email));
    throw refusal(
      before.length,
      reported.filter((email) => !inOrder.has(email)).length,
      threshold,
      known.leadCount,
    );
  }
  // An address already found invalid (by a re-check, or deleted by the admin) needs no check.
  const checked = await checkReported(
    before.filter((row) => row.email_status !== "invalid"),
    now,
  );

  return transaction(async (tx) => {
    const order = await lockOrder(tx, known.id);
    if (!order?.paid_at) throw notFound("Order not found");
    const closed = windowClosed(order, now);
    if (closed) throw new AppError(410, closed);
    // Asked only once the lock is held: a claim that waited for it must see the one committed before.
    if (await tx.replacementClaim.findUnique({ where: { orderId: order.id }, select: { id: true } })) {
      throw conflict("A replacement was already granted for this order; each order can be replaced once.");
    }

    const delivered = await deliveredAmong(tx, order.id, order.category_id, reported);
    const inOrder = new Set(delivered.map((row) => row.email));
    const notInOrder = reported.filter((email) => !inOrder.has(email));
    const verdictOf = (row: Delivered): Verdict =>
      row.email_status === "invalid"
        ? { verdict: "invalid", reason: null, checkedAt: now }
        : (checked.get(row.email) ?? { verdict: "unconfirmed", reason: null, checkedAt: now });
    const invalid = delivered.filter((row) => verdictOf(row).verdict === "invalid");
    const deliverable = delivered.filter((row) => verdictOf(row).verdict === "valid");
    const unconfirmed = delivered.filter((row) => verdictOf(row).verdict === "unconfirmed");
    const counted = invalid.length + unconfirmed.length;
    if (counted <= threshold) {
      throw refusal(counted, notInOrder.length, threshold, order.lead_count, deliverable.length);
    }
    // Only an invalid verdict counts without the cap: the others replace at most 20% of the order's
    // rows, and the rest waits for the admin. The verdicts are on the leads already (checkReported).
    const cap = Math.floor((order.lead_count * UNCONFIRMED_REPLACEMENT_PERCENT) / 100);
    const toReplace = [...invalid, ...unconfirmed.slice(0, cap)];
    const held = unconfirmed.slice(cap);

    const positions = (await swapForFresh(tx, order, toReplace, reported)).map((row) => row.position);
    const replaced = positions.length;
    const shortfall = toReplace.length - replaced;
    const claim = await tx.replacementClaim.create({
      data: {
        orderId: order.id,
        reported: reported.length,
        counted,
        replaced,
        shortfall,
        invalidConfirmed: invalid.length,
        verifiedDeliverable: deliverable.length,
        createdAt: now,
      },
      select: { id: true },
    });
    const replacedIds = new Set(positions);
    const heldIds = new Set(held.map((row) => row.position));
    await tx.replacementReport.createMany({
      data: delivered.map((row) => ({
        claimId: claim.id,
        orderId: order.id,
        leadId: row.lead_id,
        verdict: verdictOf(row).verdict,
        replaced: replacedIds.has(row.position),
        held: heldIds.has(row.position),
        createdAt: now,
      })),
    });
    // Unconfirmed reports by buyers of two different orders flag a lead for the admin's review; it
    // stays on sale until the admin decides.
    await tx.$executeRaw`
      UPDATE leads SET flagged_at = ${now}
       WHERE flagged_at IS NULL AND id IN (
         SELECT lead_id FROM replacement_reports
          WHERE lead_id = ANY(${unconfirmed.map((row) => row.lead_id)}::bigint[]) AND verdict = 'unconfirmed'
          GROUP BY lead_id HAVING count(DISTINCT order_id) >= 2)`;
    await recordEvent(
      tx,
      order.id,
      "replacement",
      `Replacement claim: ${counted} reported leads counted (${invalid.length} found invalid), ${replaced} replaced` +
        `${shortfall ? `, ${shortfall} short` : ""}${held.length ? `, ${held.length} held for review` : ""}` +
        `${deliverable.length ? `; ${deliverable.length} confirmed deliverable` : ""}`,
    );
    if (shortfall > 0) await queueShortfallMail(tx, order, shortfall, replaced);
    return {
      accepted: true,
      reported: reported.length,
      counted,
      replaced,
      shortfall,
      notInOrder,
      invalidConfirmed: invalid.length,
      verifiedDeliverable: deliverable.map((row) => ({
        email: row.email,
        checkedAt: verdictOf(row).checkedAt.toISOString(),
      })),
      heldForReview: held.length,
    };
  });
}

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
