import "server-only";
import { pool } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { Caller } from "@/lib/limits/caller";
import { assertWithinLimit } from "@/lib/limits/throttle";
import { columnSql, orderLeadsSql } from "@/lib/leads/delivery";
import { findByKey } from "@/lib/orders/access";
import { optOutCounts } from "@/lib/orders/opt-outs";
import type { OrderView } from "@/lib/orders/view";
import { getSettings } from "@/lib/settings";
import { sellerIdentity } from "@/lib/settings/admin";
import type { SellerIdentity } from "@/lib/schemas/admin";

// A paid order's due-diligence statement (docs/product-rules.md, "UK compliance"): what the ICO's
// checklist for a bought list asks, answered for this order's rows as its file delivers them
// (orderLeadsSql, the downloads' own query, so the figures are the file's).

export type StatementFigures = {
  leads: number;
  ukLeads: number;
  sources: { source: string; leads: number }[];
  collected: { oldest: string; newest: string } | null;
  verified: { oldest: string; newest: string } | null;
  /** The UK rows' phone statuses as the file states them, and the screenings' dates. */
  phones: { clear: number; tps: number; ctps: number; unscreened: number; other: number };
  screened: { oldest: string; newest: string } | null;
  /** The UK rows whose person was sent our Article 14 notice, and when the notices went. */
  notified: number;
  noticesSent: { oldest: string; newest: string } | null;
};

export type OrderStatement = {
  order: OrderView & { paidAt: Date };
  seller: SellerIdentity;
  figures: StatementFigures;
  optOuts: number;
};

type Row = {
  leads: number;
  uk_leads: number;
  collected_min: string | null;
  collected_max: string | null;
  verified_min: string | null;
  verified_max: string | null;
  screened_min: string | null;
  screened_max: string | null;
  clear: number;
  tps: number;
  ctps: number;
  unscreened: number;
  notified: number;
  notices_min: string | null;
  notices_max: string | null;
};

const day = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
const range = (oldest: string | null, newest: string | null) =>
  oldest && newest ? { oldest, newest } : null;

/** The figures of the order's delivered rows. */
async function statementFigures(orderId: string): Promise<StatementFigures> {
  const delivered = orderLeadsSql(
    orderId,
    `l.source, l.collected_at, l.verified_at, l.country, ps.screened_at, ${columnSql("phone_status")} AS phone_status,
     l.notice_status, (SELECT min(sent_at) FROM privacy_notices WHERE lead_id = l.id) AS notice_sent_at`,
  );
  const [{ rows }, { rows: sources }] = await Promise.all([
    pool().query<Row>(
      `SELECT count(*)::int AS leads, count(*) FILTER (WHERE country = 'UK')::int AS uk_leads,
              ${day("min(collected_at)")} AS collected_min, ${day("max(collected_at)")} AS collected_max,
              ${day("min(verified_at)")} AS verified_min, ${day("max(verified_at)")} AS verified_max,
              to_char(min(screened_at) FILTER (WHERE country = 'UK'), 'YYYY-MM-DD') AS screened_min,
              to_char(max(screened_at) FILTER (WHERE country = 'UK'), 'YYYY-MM-DD') AS screened_max,
              count(*) FILTER (WHERE country = 'UK' AND phone_status = 'clear')::int AS clear,
              count(*) FILTER (WHERE country = 'UK' AND phone_status = 'tps')::int AS tps,
              count(*) FILTER (WHERE country = 'UK' AND phone_status = 'ctps')::int AS ctps,
              count(*) FILTER (WHERE country = 'UK' AND phone_status = 'unscreened')::int AS unscreened,
              count(*) FILTER (WHERE country = 'UK' AND notice_status = 'sent')::int AS notified,
              ${day("min(notice_sent_at)")} AS notices_min, ${day("max(notice_sent_at)")} AS notices_max
         FROM (${delivered}) d`,
    ),
    pool().query<{ source: string; leads: number }>(
      `SELECT source, count(*)::int AS leads FROM (${delivered}) d GROUP BY source ORDER BY leads DESC, source`,
    ),
  ]);
  const row = rows[0];
  return {
    leads: row.leads,
    ukLeads: row.uk_leads,
    sources,
    collected: range(row.collected_min, row.collected_max),
    verified: range(row.verified_min, row.verified_max),
    phones: {
      clear: row.clear,
      tps: row.tps,
      ctps: row.ctps,
      unscreened: row.unscreened,
      other: row.uk_leads - row.clear - row.tps - row.ctps - row.unscreened,
    },
    screened: range(row.screened_min, row.screened_max),
    notified: row.notified,
    noticesSent: range(row.notices_min, row.notices_max),
  };
}

/** The statement of the paid order a download key names; 404 (an unknown lookup counted) otherwise. */
export async function orderStatement(key: string, caller: Caller): Promise<OrderStatement> {
  const order = await findByKey(key, caller);
  if (!order?.paidAt) throw notFound("Order not found");
  // Each statement reads the order's rows twice (up to 20,000): a key's holder gets 30 in 10 minutes.
  await assertWithinLimit(
    { bucket: `statement:${order.id}`, max: 30, windowSeconds: 600 },
    "Too many statements for this order. Please try again later.",
  );
  const [settings, figures, optOuts] = await Promise.all([
    getSettings(),
    statementFigures(order.id),
    optOutCounts([order.id]),
  ]);
  return {
    order: { ...order, paidAt: order.paidAt },
    seller: sellerIdentity(settings),
    figures,
    optOuts: optOuts.get(order.id)!,
  };
}
