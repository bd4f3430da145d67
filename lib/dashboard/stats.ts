import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db";
import { CLOSED_STATUSES } from "@/lib/payments/status";
import { noticeFigures } from "@/lib/privacy/notices";
import { SELLER_REQUIRED, type StatsDto, type UkComplianceDto } from "@/lib/schemas/admin";
import { getSettings } from "@/lib/settings";
import { SCREENING_DAYS, SCREENING_WARNING_DAYS } from "@/lib/schemas/category";
import { monthUse } from "@/lib/verification/provider-budget";

// Dashboard figures in four aggregate queries. A sale counts as confirmed (and as revenue, on
// the day it was paid) once paid_at is set; an unpaid order is pending while its checkout is open,
// and not a sale at all once it expired, was cancelled or failed.
const CLOSED_SQL = CLOSED_STATUSES.map((status) => `'${status}'`).join(", ");
const SALES_SQL = `
  SELECT
    COALESCE(SUM(amount) FILTER (WHERE paid_at IS NOT NULL), 0)::float8 AS total_revenue,
    COUNT(*) FILTER (WHERE paid_at IS NOT NULL OR status NOT IN (${CLOSED_SQL}))::int AS total_sales,
    COUNT(*) FILTER (WHERE paid_at IS NOT NULL)::int AS confirmed_sales,
    COALESCE(SUM(lead_count) FILTER (WHERE paid_at IS NOT NULL), 0)::float8 AS leads_sold,
    COALESCE(SUM(amount) FILTER (WHERE paid_at >= now() - interval '7 days'), 0)::float8 AS last_7,
    COALESCE(SUM(amount) FILTER (
      WHERE paid_at >= now() - interval '14 days' AND paid_at < now() - interval '7 days'
    ), 0)::float8 AS previous_7,
    (SELECT COUNT(*)::int FROM replacement_claims) AS replacement_claims
  FROM orders`;

const REQUESTS_SQL = `
  SELECT
    COUNT(*)::int AS total,
    COUNT(*) FILTER (WHERE status = 'pending')::int AS pending,
    COUNT(*) FILTER (WHERE status = 'in_progress')::int AS in_progress,
    COUNT(*) FILTER (WHERE status = 'completed')::int AS completed,
    (SELECT COUNT(*)::int FROM categories) AS categories,
    (SELECT COALESCE(SUM(count), 0)::float8 FROM categories) AS leads
  FROM custom_requests`;

// The last 30 days (UTC), today included, with zero-revenue days present.
const BY_DAY_SQL = `
  SELECT to_char(day, 'YYYY-MM-DD') AS date,
         COALESCE(SUM(o.amount), 0)::float8 AS revenue,
         COUNT(o.id)::int AS sales
  FROM generate_series(
         (now() AT TIME ZONE 'UTC')::date - 29, (now() AT TIME ZONE 'UTC')::date, interval '1 day'
       ) AS day
  LEFT JOIN orders o
    ON o.paid_at >= (day AT TIME ZONE 'UTC') AND o.paid_at < ((day + interval '1 day') AT TIME ZONE 'UTC')
  GROUP BY day
  ORDER BY day`;

/** The product's 7-day comparison in percent; 100 when the previous period had no revenue. */
export function revenueTrend(last7: number, previous7: number): number {
  if (previous7 === 0) return 100;
  return Math.round(((last7 - previous7) / previous7) * 1000) / 10;
}

/** Paid orders with an accepted replacement claim, in percent of paid orders (one decimal). */
export function replacementRate(claims: number, paidOrders: number): number {
  return paidOrders > 0 ? Math.round((claims / paidOrders) * 1000) / 10 : 0;
}

type SalesFigures = {
  total_revenue: number;
  total_sales: number;
  confirmed_sales: number;
  leads_sold: number;
  last_7: number;
  previous_7: number;
  replacement_claims: number;
};
type RequestFigures = {
  total: number;
  pending: number;
  in_progress: number;
  completed: number;
  categories: number;
  leads: number;
};

/** What stands between the store and lawfully selling UK rows. */
async function ukCompliance(): Promise<UkComplianceDto> {
  const [settings, registers] = await Promise.all([
    getSettings(),
    db().$queryRaw<
      { register: string; screened_at: string; expires_on: string; days_left: number }[]
    >(Prisma.sql`
      SELECT register::text, to_char(min(file_date) OVER (), 'YYYY-MM-DD') AS screened_at,
             to_char(min(file_date) OVER () + ${SCREENING_DAYS}::int, 'YYYY-MM-DD') AS expires_on,
             (min(file_date) OVER () + ${SCREENING_DAYS}::int - current_date)::int AS days_left
        FROM phone_registers`),
  ]);
  const registersMissing = ["tps", "ctps"]
    .filter((name) => !registers.some((row) => row.register === name))
    .map((name) => name.toUpperCase());
  const screening = registersMissing.length === 0 ? registers[0] : null;
  let screeningWarning: string | null = null;
  if (screening && screening.days_left < 0) {
    screeningWarning = `UK phone screening ran out after ${screening.expires_on}: UK phones are unscreened until new TPS and CTPS files are uploaded.`;
  } else if (screening && screening.days_left <= SCREENING_WARNING_DAYS) {
    screeningWarning = `UK phone screening holds until ${screening.expires_on}: upload new TPS and CTPS files before then.`;
  }
  return {
    sellerMissing: SELLER_REQUIRED.filter(({ field }) => settings[field] === "").map(({ label }) => label),
    registersMissing,
    screenedAt: screening?.screened_at ?? null,
    screeningExpiresOn: screening?.expires_on ?? null,
    screeningWarning,
    notices: await noticeFigures(settings.privacyNotices),
  };
}

export async function getStats(): Promise<StatsDto> {
  const [sales, requests, byDay, verifier, uk] = await Promise.all([
    db().$queryRaw<SalesFigures[]>(Prisma.raw(SALES_SQL)),
    db().$queryRaw<RequestFigures[]>(Prisma.raw(REQUESTS_SQL)),
    db().$queryRaw<{ date: string; revenue: number; sales: number }[]>(Prisma.raw(BY_DAY_SQL)),
    // Addresses our checks (re-checks and replacement claims) found invalid this provider month.
    monthUse(new Date()),
    ukCompliance(),
  ]);
  const [s] = sales;
  const [r] = requests;
  const totalRevenue = Math.round(s.total_revenue * 100) / 100;
  return {
    totalRevenue,
    revenueTrend: revenueTrend(s.last_7, s.previous_7),
    totalSales: s.total_sales,
    confirmedSales: s.confirmed_sales,
    pendingSales: s.total_sales - s.confirmed_sales,
    leadsSold: s.leads_sold,
    averagePricePerLead: s.leads_sold > 0 ? Math.round((totalRevenue / s.leads_sold) * 10000) / 10000 : 0,
    replacementClaims: s.replacement_claims,
    replacementRate: replacementRate(s.replacement_claims, s.confirmed_sales),
    invalidFoundThisMonth: verifier.invalidFound,
    totalRequests: r.total,
    pendingRequests: r.pending,
    inProgressRequests: r.in_progress,
    completedRequests: r.completed,
    totalCategories: r.categories,
    totalLeads: r.leads,
    revenueByDay: byDay.map((row) => ({
      date: row.date,
      revenue: Math.round(row.revenue * 100) / 100,
      sales: row.sales,
    })),
    ukCompliance: uk,
  };
}
