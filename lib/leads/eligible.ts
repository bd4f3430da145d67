import "server-only";
import { EMAIL_QUALITY_STATUSES, type EmailQuality } from "@/lib/email-quality";
import { Prisma } from "@/lib/generated/prisma/client";
import { SELLABLE_SQL } from "@/lib/leads/sellable";
import type { Location } from "@/lib/location";
import { segmentSql } from "@/lib/segments/filter";
import type { Segment } from "@/lib/segments/vocabularies";

// "Which leads may this order receive?" (docs/product-rules.md, "Delivery", "Location", "Segments",
// "Email quality", "Exclusion lists" and "Fair allocation"), built here once for allocation,
// availability, previews and replacements: sellable leads (lib/leads/sellable.ts) of the order's
// category and country, in its segment and email quality, that its exclusion list does not name
// and its buyer did not buy before. The segment counts apply the same scope to the rollups
// (lib/segments/counts.ts). Conditions name the lead's columns unqualified, so they hold wherever
// `leads` is the nearest table of that name; the list's name the table `leads` itself.

/** What an order is for: the leads of its category, country, segment and email quality. */
export type LeadScope = {
  categoryId: string;
  country: Location;
  /** Only the segment's leads (lib/segments); null or absent: the whole list. */
  segment?: Segment | null;
  /** Only leads of these email statuses (lib/email-quality.ts); absent: any. */
  emailQuality?: EmailQuality;
};

/** An exclusion list (lib/suppression), by which kinds of key it holds. */
export type ListKeys = { id: string; emails: boolean; domains: boolean };

/** A condition on the lead's email status for a choice; none for `any` (sellability covers it). */
export function emailQualitySql(quality: EmailQuality = "any"): Prisma.Sql | null {
  if (quality === "any") return null;
  return Prisma.sql`email_status = ANY(${[...EMAIL_QUALITY_STATUSES[quality]]}::"EmailStatus"[])`;
}

/** The conditions a lead of the scope meets: category, country, sellable, segment, email quality. */
export function scopeConditions(scope: LeadScope): Prisma.Sql[] {
  const conditions = [
    Prisma.sql`category_id = ${scope.categoryId}::uuid`,
    Prisma.sql`country = ${scope.country}::"Country"`,
    SELLABLE_SQL,
  ];
  if (scope.segment) conditions.push(segmentSql(scope.segment));
  const quality = emailQualitySql(scope.emailQuality);
  if (quality) conditions.push(quality);
  return conditions;
}

/** scopeConditions() joined: one condition for a WHERE. */
export function inScope(scope: LeadScope): Prisma.Sql {
  return Prisma.join(scopeConditions(scope), " AND ");
}

/**
 * The leads the list names left out: hashed anti-joins on the list's keys, against the lead's
 * stored email hash and domain. Each key set is read and hashed once per statement, then one probe
 * per lead, whatever the plan (a nested-loop NOT EXISTS costs an index probe per lead, a million of
 * them when the planner scans the category). Exact: neither side is ever NULL. None for a kind the
 * list lacks.
 */
export function notListedConditions(list: ListKeys | null | undefined): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = [];
  if (list?.emails) {
    conditions.push(Prisma.sql`leads.email_hash NOT IN (SELECT unnest(email_keys) FROM suppression_lists
      WHERE suppression_lists.id = ${list.id}::uuid)`);
  }
  if (list?.domains) {
    conditions.push(Prisma.sql`leads.email_domain NOT IN (SELECT unnest(domain_keys) FROM suppression_lists
      WHERE suppression_lists.id = ${list.id}::uuid)`);
  }
  return conditions;
}

/**
 * `SELECT id` of the category's leads that a paid order of `buyerEmail` delivered: its own, and
 * those whose email an order of another category delivered (boughtElsewhere()). An order's leads
 * are of its category. Duplicates possible; never null.
 */
export function boughtIds(categoryId: string, buyerEmail: string): Prisma.Sql {
  return Prisma.sql`SELECT ol.lead_id FROM orders o JOIN order_leads ol ON ol.order_id = o.id
     WHERE o.buyer_email = ${buyerEmail} AND o.paid_at IS NOT NULL AND o.category_id = ${categoryId}::uuid
    UNION ALL ${boughtElsewhere(categoryId, buyerEmail)}`;
}

/**
 * `SELECT id` of the category's leads whose email a paid order of `buyerEmail` in another category
 * delivered: one probe of this category's (category, email) key per such lead (LIMIT 1 keeps it a
 * probe); nothing to read when the buyer bought only here.
 */
export function boughtElsewhere(categoryId: string, buyerEmail: string): Prisma.Sql {
  return elsewhere(categoryId, Prisma.sql`same.id`, Prisma.sql`o.buyer_email = ${buyerEmail}`);
}

/** `SELECT buyer_email, id`: boughtElsewhere() of each of `buyerEmails`, in one statement. */
export function boughtElsewhereByEach(categoryId: string, buyerEmails: string[]): Prisma.Sql {
  return elsewhere(
    categoryId,
    Prisma.sql`o.buyer_email, same.id`,
    Prisma.sql`o.buyer_email = ANY(${buyerEmails}::text[])`,
  );
}

function elsewhere(categoryId: string, columns: Prisma.Sql, buyers: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`SELECT ${columns} FROM orders o JOIN order_leads ol ON ol.order_id = o.id
      JOIN leads bought ON bought.id = ol.lead_id
      CROSS JOIN LATERAL (SELECT id FROM leads
        WHERE category_id = ${categoryId}::uuid AND email = bought.email LIMIT 1) same
     WHERE ${buyers} AND o.paid_at IS NOT NULL AND o.category_id <> ${categoryId}::uuid`;
}

/** The condition that the lead is not one `buyerEmail` bought before (boughtIds(), hashed once). */
export function notBoughtSql(categoryId: string, buyerEmail: string): Prisma.Sql {
  return Prisma.sql`id NOT IN (${boughtIds(categoryId, buyerEmail)})`;
}
