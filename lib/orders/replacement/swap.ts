import "server-only";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { EmailQuality } from "@/lib/email-quality";
import type { Location } from "@/lib/location";
import type { Segment } from "@/lib/segments/vocabularies";
import {
  FRESH_ORDER,
  freshLeadsQuery,
  prepareAllocation,
  unsoldLeadsQuery,
  type FreshLeadFilter,
  type UnsoldWanted,
} from "@/lib/leads/allocation";
import type { ReportedLead } from "@/lib/orders/claim-checks";
import { orderList } from "@/lib/suppression/lists";

// An order's delivered rows swapped, in place, for fresh leads under the order's own allocation
// rules: by a replacement claim, the admin's review of its held rows, and files that heal.

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

const LOCKED_ORDER = Prisma.sql`id, category_id, lead_title, package_type::text, lead_count, location::text,
  segment, email_quality::text, paid_at, buyer_email, suppression_list_id`;

/** Locks the order row for a claim or its review: one change to its rows at a time. */
export async function lockOrder(tx: Tx, id: string): Promise<LockedOrder | undefined> {
  const [order] = await tx.$queryRaw<LockedOrder[]>`
    SELECT ${LOCKED_ORDER} FROM orders WHERE id = ${id}::uuid FOR UPDATE`;
  return order;
}

/**
 * Locks those of the orders paid after `paidAfter` that no other transaction holds (SKIP LOCKED),
 * by category: each swap then takes its category's allocation lock in one order for every instance.
 */
export async function lockFreeOrders(tx: Tx, ids: string[], paidAfter: Date): Promise<LockedOrder[]> {
  return tx.$queryRaw<LockedOrder[]>`
    SELECT ${LOCKED_ORDER} FROM orders WHERE id = ANY(${ids}::uuid[]) AND paid_at > ${paidAfter}
     ORDER BY category_id, id FOR UPDATE SKIP LOCKED`;
}

/** Rows whose lead changes: (order, position) gets `lead_id`. */
type Move = { orderId: string; position: number; leadId: bigint };

/**
 * Writes the moves, all orders' in one statement (lead_sales' trigger runs once). The orders named
 * apart let the plan read only their rows by key, never the whole table.
 */
async function move(tx: Tx, moves: Move[]): Promise<void> {
  if (moves.length === 0) return;
  const orderIds = [...new Set(moves.map((one) => one.orderId))];
  await tx.$executeRaw`
    UPDATE order_leads ol SET lead_id = swap.lead_id
      FROM unnest(${moves.map((one) => one.orderId)}::uuid[], ${moves.map((one) => one.position)}::int[],
                  ${moves.map((one) => one.leadId)}::bigint[]) AS swap(order_id, position, lead_id)
     WHERE ol.order_id = ANY(${orderIds}::uuid[]) AND ol.order_id = swap.order_id AND ol.position = swap.position`;
}

/**
 * Swaps the rows for fresh leads in place (same positions), never one of `reported`; answers the
 * swapped rows (fewer than asked when the category runs short). Claims, the admin's review and
 * files that heal (lib/orders/heal.ts, through swapAllForFresh) all swap through here.
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
  await move(
    tx,
    swapped.map((row, at) => ({ orderId: order.id, position: row.position, leadId: fresh[at].id })),
  );
  return swapped;
}

/**
 * Rows of one scope's orders swapped by one statement at most: each order ranks as many leads as
 * the orders before it in the statement may take, so the statement grows with the square of this.
 */
const RANKED_ROWS = 500;

/** One order's swap for swapAllForFresh: swapForFresh's arguments. */
export type OrderSwap = { order: LockedOrder; rows: Delivered[]; reported: string[] };

/**
 * swapForFresh for each of the orders in turn, with the same swaps and answers (each order's
 * swapped rows), but one statement for the orders of one scope (category, country, segment,
 * email quality; up to RANKED_ROWS rows) where each would cost its own: files that heal swap a few
 * rows in each of many orders. The scope's best unsold leads are ranked for every order at once (unsoldLeadsQuery);
 * each order in turn takes its best that no order before it took (swapForFresh would find those
 * sold by then). An order they cannot fill (its best lie deeper, or among the sold leads) is
 * swapped by swapForFresh itself once the swaps before it are written. The orders come locked, by
 * category (lockFreeOrders), so the categories' allocation locks are taken in one order.
 */
export async function swapAllForFresh(tx: Tx, swaps: OrderSwap[]): Promise<Delivered[][]> {
  const answers: Delivered[][] = swaps.map(() => []);
  // The orders of one scope, in turn, as far as RANKED_ROWS rows; the next ones in another group.
  const groups: number[][] = [];
  const open = new Map<string, { members: number[]; rows: number }>();
  for (const [at, { order, rows }] of swaps.entries()) {
    const scope = JSON.stringify([order.category_id, order.location, order.segment, order.email_quality]);
    let group = open.get(scope);
    if (!group || group.rows + rows.length > RANKED_ROWS) {
      group = { members: [], rows: 0 };
      open.set(scope, group);
      groups.push(group.members);
    }
    group.members.push(at);
    group.rows += rows.length;
  }
  for (const group of groups) {
    const wanted: UnsoldWanted[] = [];
    let asked = 0;
    for (const at of group) {
      const { order, rows, reported } = swaps[at];
      // Its own rows, and as many more as the orders before it may take from its best.
      asked += rows.length;
      wanted.push({ filter: await replacementFilter(tx, order, reported), limit: asked });
    }
    await prepareAllocation(tx, swaps[group[0]].order.category_id);
    // Twice the rows asked: an order's exclusion list or its buyer's purchases elsewhere pass over some.
    const best = await tx.$queryRaw<{ idx: number; ids: bigint[] }[]>`
      ${unsoldLeadsQuery(wanted[0].filter, wanted, 2 * asked)}`;
    const ranked = new Map(best.map((one) => [one.idx, one.ids]));
    const taken = new Set<bigint>();
    let pending: Move[] = [];
    for (const [idx, at] of group.entries()) {
      const { order, rows, reported } = swaps[at];
      const picks = (ranked.get(idx) ?? []).filter((id) => !taken.has(id)).slice(0, rows.length);
      // Taken either way: swapForFresh, for an order they cannot fill, takes them first too.
      for (const id of picks) taken.add(id);
      if (picks.length === rows.length) {
        pending.push(
          ...rows.map((row, n) => ({ orderId: order.id, position: row.position, leadId: picks[n] })),
        );
        answers[at] = rows;
      } else {
        await move(tx, pending);
        pending = [];
        answers[at] = await swapForFresh(tx, order, rows, reported);
      }
    }
    await move(tx, pending);
  }
  return answers;
}

/** The order's delivered rows among the reported addresses (the category's unique key, joined with its rows). */
export function deliveredAmong(
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
