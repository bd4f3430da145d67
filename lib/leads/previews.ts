import "server-only";
import type { Location } from "@/lib/location";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { SELLABLE_SQL } from "@/lib/leads/sellable";

// What anyone may see of a lead before buying it: no email, phone or profile URL, and only the
// initial of the last name.
export type LeadPreview = {
  _id: string;
  categoryId: string;
  name: string;
  title: string;
  company: string;
  city: string;
  state: string;
  country: string;
  verifiedAt: string;
  /** The status of the lead's last email check (never invalid: those are not shown). */
  emailStatus: "valid" | "accept_all" | "unknown";
};

/** The lead fields a preview reads (the catalogue version watches their columns). */
export const previewSelect = {
  id: true,
  categoryId: true,
  firstName: true,
  lastName: true,
  jobTitle: true,
  company: true,
  city: true,
  state: true,
  country: true,
  verifiedAt: true,
  emailStatus: true,
} as const;

// previewSelect's columns, named as its fields; the enums as text.
const PREVIEW_COLUMNS = Prisma.raw(
  Object.keys(previewSelect)
    .map((field) => {
      const column = field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      const text = column === "country" || column === "email_status" ? "::text" : "";
      return `${column}${text} AS "${field}"`;
    })
    .join(", "),
);

type PreviewRow = {
  id: bigint;
  categoryId: string;
  firstName: string;
  lastName: string;
  jobTitle: string;
  company: string;
  city: string;
  state: string;
  country: string;
  verifiedAt: Date;
  emailStatus: string;
};

/** A lead's name as previews show it, category and segment ones alike: first name and last initial. */
export function maskedName(firstName: string, lastName: string): string {
  const initial = lastName.trim().charAt(0);
  return initial ? `${firstName} ${initial.toUpperCase()}.` : firstName;
}

function toPreview(row: PreviewRow): LeadPreview {
  return {
    _id: row.id.toString(),
    categoryId: row.categoryId,
    name: maskedName(row.firstName, row.lastName),
    title: row.jobTitle,
    company: row.company,
    city: row.city,
    state: row.state,
    country: row.country,
    verifiedAt: row.verifiedAt.toISOString(),
    emailStatus: row.emailStatus as LeadPreview["emailStatus"],
  };
}

export type PreviewPage = { leads: LeadPreview[]; page: number; pageSize: number; total: number };

/** Leads of one category in one country, from the per-day aggregate rather than the leads. */
async function countInLocation(categoryId: string, location: Location): Promise<number> {
  const sum = await db().categoryLeadDay.aggregate({
    where: { categoryId, country: location },
    _sum: { leads: true },
  });
  return sum._sum.leads ?? 0;
}

/**
 * A page of previews, most recently verified first, of one category (and one country, when
 * given); totals come from the maintained counts.
 */
export async function listLeadPreviews(options: {
  categoryId?: string;
  location?: Location;
  page: number;
  pageSize: number;
}): Promise<PreviewPage> {
  const { categoryId, location, page, pageSize } = options;
  const where = [SELLABLE_SQL];
  if (categoryId) where.push(Prisma.sql`category_id = ${categoryId}::uuid`);
  if (categoryId && location) where.push(Prisma.sql`country = ${location}::"Country"`);
  const [rows, total] = await Promise.all([
    db().$queryRaw<PreviewRow[]>`SELECT ${PREVIEW_COLUMNS} FROM leads WHERE ${Prisma.join(where, " AND ")}
      ORDER BY ${categoryId ? Prisma.sql`verified_at DESC, id` : Prisma.sql`id DESC`}
      OFFSET ${(page - 1) * pageSize} LIMIT ${pageSize}`,
    categoryId && location
      ? countInLocation(categoryId, location)
      : categoryId
        ? db()
            .category.findUnique({ where: { id: categoryId }, select: { count: true } })
            .then((c) => c?.count ?? 0)
        : db()
            .category.aggregate({ _sum: { count: true } })
            .then((a) => a._sum.count ?? 0),
  ]);
  return { leads: rows.map(toPreview), page, pageSize, total };
}

export async function findLeadPreview(id: bigint): Promise<LeadPreview | null> {
  const [row] = await db().$queryRaw<PreviewRow[]>`SELECT ${PREVIEW_COLUMNS} FROM leads
    WHERE id = ${id} AND ${SELLABLE_SQL}`;
  return row ? toPreview(row) : null;
}
