import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { NAMED_SOURCES, OTHER_SOURCES, SCREENING_DAYS } from "@/lib/schemas/category";
import type { CategoryDto, SourceLeads } from "@/lib/schemas/category";

/** Freshness window: the UTC day of the reading and the 29 before it (docs/product-rules.md). */
export const RECENT_DAYS = 30;

type CategoryRow = {
  id: string;
  title: string;
  description: string;
  count: number;
  created_at: Date;
  imported_at: Date | null;
  usa: number;
  uk: number;
  usa_recent: number;
  uk_recent: number;
  usa_valid: number;
  usa_accept_all: number;
  uk_valid: number;
  uk_accept_all: number;
  screened_at: string | null;
  screened_uk: number;
  callable: number;
  screening_current: boolean;
  sources: SourceLeads[];
};

function sourceMix(sources: SourceLeads[]): SourceLeads[] {
  if (sources.length <= NAMED_SOURCES + 1) return sources;
  const rest = sources.slice(NAMED_SOURCES).reduce((sum, { leads }) => sum + leads, 0);
  return [...sources.slice(0, NAMED_SOURCES), { source: OTHER_SOURCES, leads: rest }];
}

function percent(part: number, whole: number): number {
  // Rounded down: 100% only when every lead is recent.
  return whole > 0 ? Math.floor((part * 100) / whole) : 0;
}

function toCategoryDto(row: CategoryRow): CategoryDto {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    count: row.count,
    countByLocation: { USA: row.usa, UK: row.uk },
    verifiedRecentlyPercent: percent(row.usa_recent + row.uk_recent, row.usa + row.uk),
    verifiedRecentlyPercentByLocation: {
      USA: percent(row.usa_recent, row.usa),
      UK: percent(row.uk_recent, row.uk),
    },
    statusMixByLocation: {
      USA: {
        valid: row.usa_valid,
        acceptAll: row.usa_accept_all,
        unknown: row.usa - row.usa_valid - row.usa_accept_all,
      },
      UK: {
        valid: row.uk_valid,
        acceptAll: row.uk_accept_all,
        unknown: row.uk - row.uk_valid - row.uk_accept_all,
      },
    },
    updatedAt: row.imported_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    ukPhoneScreening: row.screened_at
      ? {
          screenedAt: row.screened_at,
          callablePercent: percent(row.callable, row.screened_uk),
          current: row.screening_current,
        }
      : null,
    sourceMix: sourceMix(row.sources),
  };
}

// Per-country, recent and per-status counts come from category_lead_days (a few hundred rows per category,
// kept by triggers on leads), never from counting the leads themselves.
function selectCategories(where: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT c.id::text, c.title, c.description, c.count, c.created_at, c.imported_at,
      COALESCE(sum(d.leads) FILTER (WHERE d.country = 'USA'), 0)::int AS usa,
      COALESCE(sum(d.leads) FILTER (WHERE d.country = 'UK'), 0)::int AS uk,
      COALESCE(sum(d.leads) FILTER (WHERE d.country = 'USA' AND d.verified_on > today.day - ${RECENT_DAYS}::int), 0)::int AS usa_recent,
      COALESCE(sum(d.leads) FILTER (WHERE d.country = 'UK' AND d.verified_on > today.day - ${RECENT_DAYS}::int), 0)::int AS uk_recent,
      COALESCE(sum(d.leads) FILTER (WHERE d.country = 'USA' AND d.email_status = 'valid'), 0)::int AS usa_valid,
      COALESCE(sum(d.leads) FILTER (WHERE d.country = 'USA' AND d.email_status = 'accept_all'), 0)::int AS usa_accept_all,
      COALESCE(sum(d.leads) FILTER (WHERE d.country = 'UK' AND d.email_status = 'valid'), 0)::int AS uk_valid,
      COALESCE(sum(d.leads) FILTER (WHERE d.country = 'UK' AND d.email_status = 'accept_all'), 0)::int AS uk_accept_all,
      to_char(s.screened_at, 'YYYY-MM-DD') AS screened_at, COALESCE(s.uk_leads, 0) AS screened_uk,
      COALESCE(s.callable, 0) AS callable,
      COALESCE(s.screened_at >= today.day - ${SCREENING_DAYS}::int, false) AS screening_current,
      -- Kept by the rollup trigger on leads (prisma/derived/20-category-rollups.sql).
      (SELECT COALESCE(json_agg(json_build_object('source', o.source, 'leads', o.leads)
                                ORDER BY o.leads DESC, o.source), '[]')
       FROM category_sources o WHERE o.category_id = c.id) AS sources
    FROM categories c
    CROSS JOIN (SELECT (now() AT TIME ZONE 'UTC')::date AS day) today
    LEFT JOIN category_lead_days d ON d.category_id = c.id
    -- Written by each screening (lib/leads/screening.ts), one row per category.
    LEFT JOIN category_phone_screens s ON s.category_id = c.id
    ${where}
    GROUP BY c.id, today.day, s.category_id
    ORDER BY c.created_at, c.id`;
}

/** Every category, empty ones included: the admin's list. */
export async function listAllCategories(): Promise<CategoryDto[]> {
  const rows = await db().$queryRaw<CategoryRow[]>(selectCategories(Prisma.empty));
  return rows.map(toCategoryDto);
}

/** The public catalogue: a category without leads is not public. */
export async function listCategories(): Promise<CategoryDto[]> {
  const rows = await db().$queryRaw<CategoryRow[]>(selectCategories(Prisma.sql`WHERE c.count > 0`));
  return rows.map(toCategoryDto);
}

/**
 * The category's place in listCategories' order. The home page's cards pick their image by that
 * place, so the category page uses it too and shows the same image.
 */
export async function categoryPosition(id: string): Promise<number> {
  const rows = await db().$queryRaw<{ position: number }[]>`
    SELECT count(*)::int AS position FROM categories c, categories me
    WHERE me.id = ${id}::uuid AND c.count > 0 AND (c.created_at, c.id) < (me.created_at, me.id)`;
  return rows[0]?.position ?? 0;
}

/** A category of any kind, for the admin. */
export async function findAnyCategory(id: string): Promise<CategoryDto | null> {
  const rows = await db().$queryRaw<CategoryRow[]>(selectCategories(Prisma.sql`WHERE c.id = ${id}::uuid`));
  return rows[0] ? toCategoryDto(rows[0]) : null;
}

/** A public category (one with leads), or null. */
export async function findCategory(id: string): Promise<CategoryDto | null> {
  const rows = await db().$queryRaw<CategoryRow[]>(
    selectCategories(Prisma.sql`WHERE c.id = ${id}::uuid AND c.count > 0`),
  );
  return rows[0] ? toCategoryDto(rows[0]) : null;
}
