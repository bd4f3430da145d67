import "server-only";
import { AppError, conflict, notFound } from "@/lib/errors";
import { pool, withTransaction } from "@/lib/db";
import { env } from "@/lib/env";
import { freshLeadsSql } from "@/lib/leads/allocation";
import type { Mail } from "@/lib/mail";
import { queueMail } from "@/lib/mail/outbox";
import { findByKey, type Caller } from "@/lib/orders/checkout";
import { recordEvent } from "@/lib/orders/settle";
import { normalizeEmail } from "@/lib/privacy/email";
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
  paid_at: Date | null;
  download_expires_at: Date | null;
};

type Delivered = { position: number; lead_id: string };

function windowClosed(order: LockedOrder, now: Date): string | null {
  const claimableUntil = order.paid_at!.getTime() + REPLACEMENT_DAYS * 24 * 3600 * 1000;
  if (now.getTime() > claimableUntil) {
    return `Replacement claims can be filed within ${REPLACEMENT_DAYS} days of payment; this order's window has closed.`;
  }
  if (!order.download_expires_at || now.getTime() > order.download_expires_at.getTime()) {
    return `This order's link has expired. Get a new link at ${env().PUBLIC_BASE_URL}/orders ("Find my orders") and file the claim from there.`;
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

  return withTransaction(async (client) => {
    const { rows } = await client.query<LockedOrder>(
      `SELECT id, category_id, lead_title, package_type::text, lead_count, paid_at, download_expires_at
         FROM orders WHERE id = $1 FOR UPDATE`,
      [known.id],
    );
    const order = rows[0];
    if (!order?.paid_at) throw notFound("Order not found");
    const closed = windowClosed(order, now);
    if (closed) throw new AppError(410, closed);
    // Asked only once the lock is held: a claim that waited for it must see the one committed before.
    const claimed = await client.query("SELECT 1 FROM replacement_claims WHERE order_id = $1", [order.id]);
    if (claimed.rowCount) {
      throw conflict("A replacement was already granted for this order; each order can be replaced once.");
    }

    // Only addresses delivered in this order count: the category's leads with those emails
    // (its unique key), joined with this order's rows.
    const delivered = await client.query<Delivered & { email: string }>(
      `SELECT ol.position, ol.lead_id::text AS lead_id, l.email
         FROM leads l JOIN order_leads ol ON ol.lead_id = l.id AND ol.order_id = $1
        WHERE l.category_id = $2 AND l.email = ANY($3::text[])
        ORDER BY ol.position`,
      [order.id, order.category_id, reported],
    );
    const counted = delivered.rows.length;
    const inOrder = new Set(delivered.rows.map((row) => row.email));
    const notInOrder = reported.filter((email) => !inOrder.has(email));
    const threshold = replacementThreshold(order.lead_count);
    if (counted <= threshold) {
      throw new AppError(
        422,
        `Free replacement applies when more than ${REPLACEMENT_THRESHOLD_PERCENT}% of an order's leads are invalid (more than ${threshold.toLocaleString("en-US")} of ${order.lead_count.toLocaleString("en-US")}). ${counted.toLocaleString("en-US")} of the reported addresses ${counted === 1 ? "was" : "were"} delivered in this order${notInOrder.length ? `; ${notInOrder.length.toLocaleString("en-US")} ${notInOrder.length === 1 ? "was" : "were"} not` : ""}.`,
      );
    }

    const reportedIds = delivered.rows.map((row) => row.lead_id);
    const quarantined = await client.query(
      `UPDATE leads SET quarantined_at = $2 WHERE id = ANY($1::bigint[]) AND quarantined_at IS NULL`,
      [reportedIds, now],
    );
    // A category's count is what it can sell: quarantined leads leave it until released.
    await client.query("UPDATE categories SET count = count - $2, updated_at = now() WHERE id = $1", [
      order.category_id,
      quarantined.rowCount ?? 0,
    ]);

    const params: unknown[] = [];
    const fresh = await client.query<{ id: string }>(
      `SELECT id::text AS id FROM (${freshLeadsSql({ categoryId: order.category_id, notInOrderId: order.id }, counted, params)}) AS fresh`,
      params,
    );
    const replacements = fresh.rows.map((row) => row.id);
    const positions = delivered.rows.slice(0, replacements.length).map((row) => row.position);
    await client.query(
      `UPDATE order_leads ol SET lead_id = swap.lead_id
         FROM unnest($2::int[], $3::bigint[]) AS swap(position, lead_id)
        WHERE ol.order_id = $1 AND ol.position = swap.position`,
      [order.id, positions, replacements],
    );
    const replaced = replacements.length;
    const shortfall = counted - replaced;
    await client.query(
      `INSERT INTO replacement_claims (order_id, reported, counted, replaced, shortfall, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [order.id, reported.length, counted, replaced, shortfall, now],
    );
    await recordEvent(
      client,
      order.id,
      "replacement",
      `Replacement claim: ${counted} reported leads, ${replaced} replaced${shortfall ? `, ${shortfall} short` : ""}`,
    );
    if (shortfall > 0) {
      // The admin hears about it even with sale notifications off: a buyer is owed leads.
      const to =
        (await getNotificationRecipient(client)) ??
        (await client.query<{ email: string }>("SELECT email FROM admins ORDER BY created_at LIMIT 1"))
          .rows[0]?.email;
      if (to) await queueMail(shortfallMail(to, order, shortfall, replaced), client, "replacement-shortfall");
    }
    return { accepted: true, reported: reported.length, counted, replaced, shortfall, notInOrder };
  });
}

/** The order's accepted claim, or null. */
export async function replacementOf(orderId: string): Promise<ReplacementSummary | null> {
  const { rows } = await pool().query<{
    reported: number;
    counted: number;
    replaced: number;
    shortfall: number;
    created_at: Date;
  }>(
    "SELECT reported, counted, replaced, shortfall, created_at FROM replacement_claims WHERE order_id = $1",
    [orderId],
  );
  const row = rows[0];
  return row
    ? {
        reported: row.reported,
        counted: row.counted,
        replaced: row.replaced,
        shortfall: row.shortfall,
        claimedAt: row.created_at.toISOString(),
      }
    : null;
}
