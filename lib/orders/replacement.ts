import "server-only";
import { revalidateCatalogue } from "@/lib/categories/cache";
import { adminEmail } from "@/lib/auth/admin-account";
import { afterCommit, db, transaction, type Tx } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError, conflict, notFound } from "@/lib/errors";
import type { Location } from "@/lib/categories/location";
import { freshLeadsQuery } from "@/lib/leads/allocation";
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
  replacementThreshold,
  type ReplacementAnswer,
  type ReplacementSummary,
} from "@/lib/schemas/orders";

// Free replacement of invalid leads (docs/product-rules.md, "Replacement claims"). The holder of a
// paid order's download key reports addresses; those delivered in the order count, and when they
// are more than 5% of the order's lead count, exactly their rows are swapped (same positions) for
// fresh leads of the category, and the reported leads are quarantined for every later order.
// The order row is locked for the whole claim, so of two simultaneous claims one is accepted.

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

function refusal(counted: number, notInOrder: number, threshold: number, leadCount: number): AppError {
  const n = (value: number) => value.toLocaleString("en-US");
  const others = notInOrder ? `; ${n(notInOrder)} ${notInOrder === 1 ? "was" : "were"} not` : "";
  return new AppError(
    422,
    `Free replacement applies when more than ${REPLACEMENT_THRESHOLD_PERCENT}% of an order's leads are invalid (more than ${n(threshold)} of ${n(leadCount)}). ${n(counted)} of the reported addresses ${counted === 1 ? "was" : "were"} delivered in this order${others}.`,
  );
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

    // Only addresses delivered in this order count: the category's leads with those emails
    // (its unique key), joined with this order's rows.
    const delivered = await tx.$queryRaw<Delivered[]>`
      SELECT ol.position, ol.lead_id, l.email
        FROM leads l JOIN order_leads ol ON ol.lead_id = l.id AND ol.order_id = ${order.id}::uuid
       WHERE l.category_id = ${order.category_id}::uuid AND l.email = ANY(${reported}::text[])
       ORDER BY ol.position`;
    const counted = delivered.length;
    const inOrder = new Set(delivered.map((row) => row.email));
    const notInOrder = reported.filter((email) => !inOrder.has(email));
    const threshold = replacementThreshold(order.lead_count);
    if (counted <= threshold) throw refusal(counted, notInOrder.length, threshold, order.lead_count);

    await tx.lead.updateMany({
      where: { id: { in: delivered.map((row) => row.lead_id) }, quarantinedAt: null },
      data: { quarantinedAt: now },
    });
    // A category's count is what it can sell: quarantined leads leave it (the triggers on leads
    // move it) until released.
    afterCommit(tx, revalidateCatalogue);

    const fresh = await tx.$queryRaw<{ id: bigint }[]>`
      SELECT id FROM (${freshLeadsQuery({ categoryId: order.category_id, country: order.location, notInOrderId: order.id, notEmails: reported }, counted)}) AS fresh`;
    const positions = delivered.slice(0, fresh.length).map((row) => row.position);
    await tx.$executeRaw`
      UPDATE order_leads ol SET lead_id = swap.lead_id
        FROM unnest(${positions}::int[], ${fresh.map((row) => row.id)}::bigint[]) AS swap(position, lead_id)
       WHERE ol.order_id = ${order.id}::uuid AND ol.position = swap.position`;
    const replaced = fresh.length;
    const shortfall = counted - replaced;
    await tx.replacementClaim.create({
      data: { orderId: order.id, reported: reported.length, counted, replaced, shortfall, createdAt: now },
      select: { id: true },
    });
    await recordEvent(
      tx,
      order.id,
      "replacement",
      `Replacement claim: ${counted} reported leads, ${replaced} replaced${shortfall ? `, ${shortfall} short` : ""}`,
    );
    if (shortfall > 0) await queueShortfallMail(tx, order, shortfall, replaced);
    return { accepted: true, reported: reported.length, counted, replaced, shortfall, notInOrder };
  });
}

/** The order's accepted claim, or null. */
export async function replacementOf(orderId: string): Promise<ReplacementSummary | null> {
  const claim = await db().replacementClaim.findUnique({
    where: { orderId },
    select: { reported: true, counted: true, replaced: true, shortfall: true, createdAt: true },
  });
  return claim && toReplacementSummary(claim);
}

export function toReplacementSummary(claim: {
  reported: number;
  counted: number;
  replaced: number;
  shortfall: number;
  createdAt: Date;
}): ReplacementSummary {
  return {
    reported: claim.reported,
    counted: claim.counted,
    replaced: claim.replaced,
    shortfall: claim.shortfall,
    claimedAt: claim.createdAt.toISOString(),
  };
}
