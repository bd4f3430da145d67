import "server-only";
import { adminEmail } from "@/lib/auth/admin-account";
import { db, transaction, type Tx } from "@/lib/db";
import { AppError, conflict, notFound } from "@/lib/errors";
import { assertClaimAttemptLeft, bookClaimAttempt } from "@/lib/orders/claim-attempts";
import { checkReported, type Verdict } from "@/lib/orders/claim-checks";
import { queueMail } from "@/lib/mail/outbox";
import { shortfallMail } from "@/lib/orders/mails";
import { findByKey } from "@/lib/orders/access";
import type { OrderView } from "@/lib/orders/view";
import type { Caller } from "@/lib/limits/caller";
import { recordEvent } from "@/lib/orders/settle";
import { normalizeEmail } from "@/lib/mail/address";
import { getNotificationRecipient } from "@/lib/settings";
import {
  deliveredAmong,
  lockOrder,
  swapForFresh,
  type Delivered,
  type LockedOrder,
} from "@/lib/orders/replacement/swap";
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

const DAY_MS = 24 * 3600 * 1000;

/**
 * The claim's refusals that need no check: 409 once a replacement was granted, 410 once the window
 * has closed. Asked before the provider is, and again under the order's lock.
 */
async function assertClaimOpen(tx: Tx | ReturnType<typeof db>, orderId: string, paidAt: Date, now: Date) {
  if (await tx.replacementClaim.findUnique({ where: { orderId }, select: { id: true } })) {
    throw conflict("A replacement was already granted for this order; each order can be replaced once.");
  }
  if (now.getTime() > paidAt.getTime() + REPLACEMENT_DAYS * DAY_MS) {
    throw new AppError(
      410,
      `Replacement claims can be filed within ${REPLACEMENT_DAYS} days of payment; this order's window has closed.`,
    );
  }
}

/** The admin hears about a shortfall even with sale notifications off: a buyer is owed leads. */
async function queueShortfallMail(tx: Tx, order: LockedOrder, shortfall: number, replaced: number) {
  const to = (await getNotificationRecipient(tx)) ?? (await adminEmail(tx));
  if (to) await queueMail(shortfallMail(to, order, shortfall, replaced), tx, "replacement-shortfall");
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
  const [, before] = await Promise.all([
    assertClaimOpen(db(), known.id, known.paidAt, now),
    deliveredAmong(db(), known.id, known.categoryId, reported),
  ]);
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
    // Asked again once the lock is held: a claim that waited for it must see the one committed before.
    await assertClaimOpen(tx, order.id, order.paid_at, now);

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
