import "server-only";
import type { Location } from "@/lib/location";
import { db } from "@/lib/db";
import { sellableLead } from "@/lib/leads/sellable";

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
  const [rows, total] = await Promise.all([
    db().lead.findMany({
      where: {
        ...sellableLead,
        ...(categoryId ? { categoryId, ...(location ? { country: location } : {}) } : {}),
      },
      select: previewSelect,
      orderBy: categoryId ? [{ verifiedAt: "desc" }, { id: "asc" }] : [{ id: "desc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
    }),
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
  const row = await db().lead.findFirst({ where: { id, ...sellableLead }, select: previewSelect });
  return row ? toPreview(row) : null;
}
