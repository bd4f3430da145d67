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
  type FreshLeadFilter,
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
