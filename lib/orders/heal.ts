import "server-only";
import { db, transaction } from "@/lib/db";
import { queueMails } from "@/lib/mail/outbox";
import { healMail } from "@/lib/orders/mails";
import { orderPageUrl } from "@/lib/orders/links";
import { lockFreeOrders, swapAllForFresh, type Delivered } from "@/lib/orders/replacement/swap";
import { REPLACEMENT_DAYS, type OrderSwaps } from "@/lib/schemas/orders";

// Files that heal (docs/product-rules.md, "Files that heal"). For REPLACEMENT_DAYS after payment, a
// delivered lead that a check later finds invalid is swapped in the order's file for a fresh lead
// of the order's own rules, in place, through the claim's own swapForFresh (swapAllForFresh: one
// statement for a batch's orders of one scope): the file keeps its row count and the buyer's one
// claim stays untouched. The trigger of prisma/derived/50-heal-queue.sql
// queues such leads; this pass swaps them a batch of orders per transaction, each order's row
// locked (a download is one statement, so it reads the file before or after a swap, never a mix).
// A row the category cannot fill is recorded once and not tried again. Orders are claimed with
// SKIP LOCKED, so several instances share the work.

const DAY_MS = 24 * 3600 * 1000;
/** Orders healed per transaction: a batch's queries are shared, its fresh leads one statement per scope. */
const ORDERS_PER_BATCH = 50;
/** Swaps listed per order in its summary (the counts cover all of them). */
export const LISTED_SWAPS = 50;

/** Orders still within the window with queued leads not healed yet, a pass's worth. */
async function ordersToHeal(since: Date): Promise<string[]> {
  const rows = await db().$queryRaw<{ order_id: string }[]>`
    SELECT DISTINCT ol.order_id::text
      FROM invalidated_leads q
      JOIN order_leads ol ON ol.lead_id = q.lead_id
      JOIN orders o ON o.id = ol.order_id AND o.paid_at > ${since}
     WHERE NOT EXISTS (SELECT 1 FROM order_heals h WHERE h.order_id = ol.order_id AND h.old_lead_id = ol.lead_id)
     LIMIT ${ORDERS_PER_BATCH * 4}`;
  return rows.map((row) => row.order_id);
}

type WaitingRow = Delivered & { order_id: string };

/**
 * Heals the invalid rows of those of the orders no other instance holds, in one transaction;
 * answers the rows swapped, null when another instance holds every one of them.
 */
async function healBatch(orderIds: string[], since: Date, now: Date): Promise<number | null> {
  return transaction(async (tx) => {
    const orders = await lockFreeOrders(tx, orderIds, since);
    if (orders.length === 0) return null;
    const waiting = await tx.$queryRaw<WaitingRow[]>`
      SELECT ol.order_id::text, ol.position, ol.lead_id, l.email, l.email_status::text, l.provider_checked_at
        FROM order_leads ol
        JOIN invalidated_leads q ON q.lead_id = ol.lead_id
        JOIN leads l ON l.id = ol.lead_id
       WHERE ol.order_id = ANY(${orders.map((order) => order.id)}::uuid[]) AND l.email_status = 'invalid'
         AND NOT EXISTS (SELECT 1 FROM order_heals h WHERE h.order_id = ol.order_id AND h.old_lead_id = ol.lead_id)
       ORDER BY ol.order_id, ol.position`;
    const toSwap = orders
      .map((order) => {
        const rows = waiting.filter((row) => row.order_id === order.id);
        return { order, rows, reported: rows.map((row) => row.email) };
      })
      .filter((swap) => swap.rows.length > 0);
    const answers = await swapAllForFresh(tx, toSwap);
    const heals: { order_id: string; position: number; lead_id: bigint; swapped: boolean }[] = [];
    const events: { orderId: string; status: string; note: string }[] = [];
    let swaps = 0;
    for (const [at, { order, rows }] of toSwap.entries()) {
      const positions = new Set(answers[at].map((row) => row.position));
      for (const row of rows) heals.push({ ...row, swapped: positions.has(row.position) });
      const short = rows.length - positions.size;
      swaps += positions.size;
      events.push({
        orderId: order.id,
        status: "healed",
        note:
          `${positions.size} lead${positions.size === 1 ? "" : "s"} found invalid after the sale replaced` +
          `${short ? `, ${short} not replaced (the category ran short)` : ""}`,
      });
    }
    if (heals.length === 0) return 0;
    // Swapped rows get their fresh lead (the row's lead now); the rest (the category ran short)
    // none, once. The orders named apart: only their rows are read, by key.
    await tx.$executeRaw`
      INSERT INTO order_heals (order_id, position, old_lead_id, new_lead_id, healed_at)
      SELECT r.order_id, r.position, r.old_lead_id, CASE WHEN r.swapped THEN ol.lead_id END, ${now}
        FROM unnest(${heals.map((row) => row.order_id)}::uuid[], ${heals.map((row) => row.position)}::int[],
                    ${heals.map((row) => row.lead_id)}::bigint[], ${heals.map((row) => row.swapped)}::boolean[])
             AS r(order_id, position, old_lead_id, swapped)
        JOIN order_leads ol ON ol.order_id = r.order_id AND ol.position = r.position
       WHERE ol.order_id = ANY(${toSwap.map(({ order }) => order.id)}::uuid[])`;
    await tx.orderEvent.createMany({ data: events });
    return swaps;
  });
}

/**
 * Mails each buyer whose order had rows swapped since their last such mail, at most once a day per
 * order: swaps within a day of the last mail wait for the next day's pass.
 */
async function mailHealedOrders(now: Date): Promise<void> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  await transaction(async (tx) => {
    const orders = await tx.$queryRaw<
      { id: string; buyer_email: string; download_key: string; lead_title: string; swapped: number }[]
    >`
      SELECT o.id::text, o.buyer_email, o.download_key, o.lead_title,
             (SELECT count(*)::int FROM order_heals h
               WHERE h.order_id = o.id AND h.new_lead_id IS NOT NULL
                 AND h.healed_at > COALESCE(o.heal_mailed_at, '-infinity')) AS swapped
        FROM orders o
       WHERE o.buyer_email IS NOT NULL AND (o.heal_mailed_at IS NULL OR o.heal_mailed_at <= ${dayAgo})
         AND EXISTS (SELECT 1 FROM order_heals h
                      WHERE h.order_id = o.id AND h.new_lead_id IS NOT NULL
                        AND h.healed_at > COALESCE(o.heal_mailed_at, '-infinity'))
       FOR UPDATE OF o SKIP LOCKED`;
    await queueMails(
      orders.map((order) =>
        healMail(order.buyer_email, order.lead_title, order.swapped, orderPageUrl(order.download_key)),
      ),
      tx,
      "order-healed",
    );
    await tx.$executeRaw`UPDATE orders SET heal_mailed_at = ${now} WHERE id = ANY(${orders.map((order) => order.id)}::uuid[])`;
  });
}

/** Leaves the queue the leads no order in the window still waits on (healed, or the window closed). */
async function dropHealedLeads(since: Date): Promise<void> {
  await db().$executeRaw`
    DELETE FROM invalidated_leads q
     WHERE NOT EXISTS (
       SELECT 1 FROM order_leads ol JOIN orders o ON o.id = ol.order_id AND o.paid_at > ${since}
        WHERE ol.lead_id = q.lead_id
          AND NOT EXISTS (SELECT 1 FROM order_heals h WHERE h.order_id = ol.order_id AND h.old_lead_id = ol.lead_id))`;
}

/** One pass: heals every waiting order, mails their buyers, clears the queue; answers the swaps. */
export async function healOrders(now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - REPLACEMENT_DAYS * DAY_MS);
  let swaps = 0;
  for (;;) {
    const orders = await ordersToHeal(since);
    let progressed = false;
    for (let at = 0; at < orders.length; at += ORDERS_PER_BATCH) {
      const swapped = await healBatch(orders.slice(at, at + ORDERS_PER_BATCH), since, now);
      // Orders held by another instance are that instance's work: don't spin on them.
      if (swapped !== null) progressed = true;
      swaps += swapped ?? 0;
    }
    if (orders.length < ORDERS_PER_BATCH * 4 || !progressed) break;
  }
  await dropHealedLeads(since);
  await mailHealedOrders(now);
  return swaps;
}

/** The swaps of the given orders, as their summaries list them: counts, and the latest few. */
export async function swapsOf(orderIds: string[]): Promise<Map<string, OrderSwaps>> {
  const swaps = new Map<string, OrderSwaps>(
    orderIds.map((id) => [id, { replaced: 0, notReplaced: 0, latest: [] }]),
  );
  if (orderIds.length === 0) return swaps;
  const rows = await db().$queryRaw<
    { order_id: string; position: number; replaced: boolean; healed_at: Date; n: number }[]
  >`
    SELECT order_id::text, position, new_lead_id IS NOT NULL AS replaced, healed_at,
           row_number() OVER (PARTITION BY order_id ORDER BY healed_at DESC, position)::int AS n
      FROM order_heals WHERE order_id = ANY(${orderIds}::uuid[])`;
  for (const row of rows) {
    const one = swaps.get(row.order_id)!;
    if (row.replaced) one.replaced += 1;
    else one.notReplaced += 1;
    if (row.n <= LISTED_SWAPS)
      one.latest.push({ row: row.position, replaced: row.replaced, at: row.healed_at.toISOString() });
  }
  return swaps;
}
