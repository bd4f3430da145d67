import "server-only";
import { revalidateCatalogue } from "@/lib/categories/cache";
import { adminEmail } from "@/lib/auth/admin-account";
import { afterCommit, db, transaction, type Tx } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError, conflict, notFound } from "@/lib/errors";
import type { Location } from "@/lib/categories/location";
import { freshLeadsQuery } from "@/lib/leads/allocation";
import { recordVerifierError, reserve } from "@/lib/leads/recheck";
import { mailDomainChecker, zeroBounce } from "@/lib/verification/configured";
import { verifyAddresses } from "@/lib/verification/verify-addresses";
import type { Mail } from "@/lib/mail";
import { queueMail } from "@/lib/mail/outbox";
import { findByKey } from "@/lib/orders/access";
import type { Caller } from "@/lib/orders/limits";
import { recordEvent } from "@/lib/orders/settle";
import { normalizeEmail } from "@/lib/mail/address";
import { getNotificationRecipient } from "@/lib/settings";
import {
  REPLACEMENT_DAYS,
  REPLACEMENT_THRESHOLD_PERCENT,
  UNCONFIRMED_REPLACEMENT_PERCENT,
  replacementThreshold,
  type ReplacementAnswer,
  type ReplacementSummary,
} from "@/lib/schemas/orders";

// Free replacement of invalid leads (docs/product-rules.md, "Replacement claims"). The holder of a
// paid order's download key reports addresses; those delivered in the order are checked again
// (our checks, and the provider when configured). Invalid ones count, are replaced and stop being
// sellable to anyone; ones the provider confirms deliverable do not count; the others count and
// are replaced for this buyer, and are quarantined for everyone once buyers of two different
// orders have reported them. When more than 5% count, their rows are swapped (same positions) for
// fresh leads; without the provider's word one claim swaps at most 20% of the order's rows, the
// rest is held for the admin's review. The order row is locked for the whole claim, so of two
// simultaneous claims one is accepted.

type LockedOrder = {
  id: string;
  category_id: string;
  lead_title: string;
  package_type: string;
  lead_count: number;
  location: Location;
  paid_at: Date | null;
};

type Delivered = { position: number; lead_id: bigint; email: string };
type Verdict = { verdict: "invalid" | "valid" | "unconfirmed"; reason: string | null };
type Checked = { verdicts: Map<string, Verdict>; providerAnswered: boolean; checkedAt: Date };

const DAY_MS = 24 * 3600 * 1000;

function windowClosed(order: LockedOrder, now: Date): string | null {
  if (now.getTime() > order.paid_at!.getTime() + REPLACEMENT_DAYS * DAY_MS) {
    return `Replacement claims can be filed within ${REPLACEMENT_DAYS} days of payment; this order's window has closed.`;
  }
  return null;
}

function shortfallMail(to: string, order: LockedOrder, shortfall: number, replaced: number): Mail {
  return {
    to,
    subject: `Replacement shortfall: ${order.lead_title} - ${shortfall} lead${shortfall === 1 ? "" : "s"} missing`,
    text: [
      "A buyer's replacement claim was accepted, but the category had too few fresh leads to cover it.",
      "",
      `Category: ${order.lead_title}`,
      `Package: ${order.package_type} (${order.lead_count.toLocaleString("en-US")} leads)`,
      `Replaced: ${replaced}`,
      `Not replaced (shortfall): ${shortfall}`,
      `Order: ${order.id}`,
      "",
      "Import more leads into the category and contact the buyer, or refund the difference.",
      `Dashboard: ${env().PUBLIC_BASE_URL}/admin/dashboard`,
    ].join("\n"),
  };
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

/** The check at the claim, outside any lock: our checks, then the provider within the month's limit. */
async function checkReported(emails: string[], now: Date): Promise<Checked> {
  let provider = zeroBounce() ?? undefined;
  const month = now.toISOString().slice(0, 7) + "-01";
  if (provider && !(await reserve(month, emails.length, env().EMAIL_VERIFIER_MONTHLY_LIMIT ?? null))) {
    await recordVerifierError(
      "The monthly limit of addresses sent to the verification provider was reached",
      now,
    );
    provider = undefined;
  }
  const { checks, providerError } = await verifyAddresses(emails, { domains: mailDomainChecker(), provider });
  if (providerError) await recordVerifierError(providerError.message, now);
  const verdicts = new Map<string, Verdict>();
  checks.forEach((check, index) => {
    const verdict =
      check.status === "invalid" ? "invalid" : check.status === "valid" ? "valid" : "unconfirmed";
    verdicts.set(emails[index], { verdict, reason: check.reason });
  });
  return { verdicts, providerAnswered: provider !== undefined && providerError === null, checkedAt: now };
}

/** The order's delivered rows among the reported addresses (the category's unique key, joined with its rows). */
function deliveredAmong(
  tx: Tx | ReturnType<typeof db>,
  orderId: string,
  categoryId: string,
  reported: string[],
) {
  return tx.$queryRaw<Delivered[]>`
    SELECT ol.position, ol.lead_id, l.email
      FROM leads l JOIN order_leads ol ON ol.lead_id = l.id AND ol.order_id = ${orderId}::uuid
     WHERE l.category_id = ${categoryId}::uuid AND l.email = ANY(${reported}::text[])
     ORDER BY ol.position`;
}

/** The admin hears about a shortfall even with sale notifications off: a buyer is owed leads. */
async function queueShortfallMail(tx: Tx, order: LockedOrder, shortfall: number, replaced: number) {
  const to = (await getNotificationRecipient(tx)) ?? (await adminEmail(tx));
  if (to) await queueMail(shortfallMail(to, order, shortfall, replaced), tx, "replacement-shortfall");
}

/** Files a claim for the order a download key names; throws the 404/410/409/422 of the rules. */
export async function claimReplacement(
  key: string,
  reportedAddresses: string[],
  caller: Caller,
  now = new Date(),
): Promise<ReplacementAnswer> {
  // The key is checked (and an unknown one counted against the caller) before any locking.
  const known = await findByKey(key, caller);
  if (!known?.paidAt) throw notFound("Order not found");
  const reported = [...new Set(reportedAddresses.map(normalizeEmail))];

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
  const checked = await checkReported(
    before.map((row) => row.email),
    now,
  );

  return transaction(async (tx) => {
    const [order] = await tx.$queryRaw<LockedOrder[]>`
      SELECT id, category_id, lead_title, package_type::text, lead_count, location::text, paid_at
        FROM orders WHERE id = ${known.id}::uuid FOR UPDATE`;
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
      checked.verdicts.get(row.email) ?? { verdict: "unconfirmed", reason: null };
    const invalid = delivered.filter((row) => verdictOf(row).verdict === "invalid");
    const deliverable = delivered.filter((row) => verdictOf(row).verdict === "valid");
    const unconfirmed = delivered.filter((row) => verdictOf(row).verdict === "unconfirmed");
    const counted = invalid.length + unconfirmed.length;
    if (counted <= threshold) {
      throw refusal(counted, notInOrder.length, threshold, order.lead_count, deliverable.length);
    }
    // Without the provider's word one claim swaps at most 20% of the order; proven invalid first.
    const cap = checked.providerAnswered
      ? counted
      : Math.floor((order.lead_count * UNCONFIRMED_REPLACEMENT_PERCENT) / 100);
    const toReplace = [...invalid, ...unconfirmed].slice(0, cap);
    const held = [...invalid, ...unconfirmed].slice(cap);

    // Invalid for everyone: no later order gets them; earlier files keep them, marked invalid.
    for (const row of invalid) {
      await tx.lead.update({
        where: { id: row.lead_id },
        data: { emailStatus: "invalid", emailStatusReason: verdictOf(row).reason ?? "", emailCheckedAt: now },
        select: { id: true },
      });
    }
    if (invalid.length > 0) {
      await tx.$executeRaw`
        INSERT INTO verifier_months AS m (month, invalid_found)
        VALUES (date_trunc('month', ${now}::timestamptz AT TIME ZONE 'UTC')::date, ${invalid.length})
        ON CONFLICT (month) DO UPDATE SET invalid_found = m.invalid_found + ${invalid.length}`;
    }
    // Confirmed deliverable: checked and verified now.
    await tx.lead.updateMany({
      where: { id: { in: deliverable.map((row) => row.lead_id) } },
      data: { emailStatus: "valid", emailStatusReason: "", emailCheckedAt: now, verifiedAt: now },
    });
    afterCommit(tx, revalidateCatalogue);

    const fresh = await tx.$queryRaw<{ id: bigint }[]>`
      SELECT id FROM (${freshLeadsQuery({ categoryId: order.category_id, country: order.location, notInOrderId: order.id, notEmails: reported }, toReplace.length)}) AS fresh`;
    const positions = toReplace.slice(0, fresh.length).map((row) => row.position);
    await tx.$executeRaw`
      UPDATE order_leads ol SET lead_id = swap.lead_id
        FROM unnest(${positions}::int[], ${fresh.map((row) => row.id)}::bigint[]) AS swap(position, lead_id)
       WHERE ol.order_id = ${order.id}::uuid AND ol.position = swap.position`;
    const replaced = fresh.length;
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
        heldForReview: held.length,
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
    // Unconfirmed reports take a lead off the shelf only once buyers of two different orders made them.
    await tx.$executeRaw`
      UPDATE leads SET quarantined_at = ${now}
       WHERE quarantined_at IS NULL AND id IN (
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
        checkedAt: checked.checkedAt.toISOString(),
      })),
      heldForReview: held.length,
    };
  });
}

/** The order's accepted claim, or null. */
export async function replacementOf(orderId: string): Promise<ReplacementSummary | null> {
  const claim = await db().replacementClaim.findUnique({
    where: { orderId },
    select: {
      reported: true,
      counted: true,
      replaced: true,
      shortfall: true,
      heldForReview: true,
      createdAt: true,
    },
  });
  return claim && toReplacementSummary(claim);
}

export function toReplacementSummary(claim: {
  reported: number;
  counted: number;
  replaced: number;
  shortfall: number;
  heldForReview: number;
  createdAt: Date;
}): ReplacementSummary {
  return {
    reported: claim.reported,
    counted: claim.counted,
    replaced: claim.replaced,
    shortfall: claim.shortfall,
    heldForReview: claim.heldForReview,
    claimedAt: claim.createdAt.toISOString(),
  };
}
