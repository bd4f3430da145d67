import "server-only";
import type { PoolClient } from "pg";
import { pool } from "@/lib/db";
import { conflict, notFound } from "@/lib/errors";
import { SELLABLE } from "@/lib/leads/sellable";
import type { RecheckOverview } from "@/lib/schemas/admin";

// What is due for a re-check, and the admin's "Re-check now" (docs/product-rules.md,
// "Verification"). A request marks a category's sellable leads last verified or checked before the
// moment of the request as due now: the re-check workers (lib/leads/recheck) take them before
// anything else, 200 at a time in the order of leads_recheck_due_idx, past a cursor kept in the
// request's row, so that every instance shares one sweep and a restart resumes it.

export const RECHECK_AFTER_DAYS = 27;

/** Leads last verified or checked before this moment are due. */
export function dueBefore(now: Date): Date {
  return new Date(now.getTime() - RECHECK_AFTER_DAYS * 86_400_000);
}

// The predicate of leads_recheck_due_idx (migration SQL): the counts and sweeps below read only it.
const LAST_CHECK = "GREATEST(l.verified_at, l.email_checked_at)";

/**
 * Every category's (or one's) due leads and requested re-check (if any), oldest category first.
 * The due leads are summed from category_check_days for the days before the cutoff's, and counted
 * from the index for the cutoff's own day only; imported leads queued for the provider (and not
 * already past the cutoff) are counted from leads_queued_idx.
 */
export async function recheckOverview(now = new Date(), categoryId?: string): Promise<RecheckOverview[]> {
  const cutoff = dueBefore(now);
  const day = cutoff.toISOString().slice(0, 10);
  const { rows } = await pool().query<{
    category_id: string;
    due: number;
    requested_at: Date | null;
    total: number | null;
    checked: number | null;
    finished_at: Date | null;
  }>(
    `SELECT c.id AS category_id,
            (SELECT COALESCE(sum(d.leads), 0)::int FROM category_check_days d
              WHERE d.category_id = c.id AND d.checked_on < $2::date)
            + (SELECT count(*)::int FROM leads l
                WHERE l.category_id = c.id AND ${SELLABLE}
                  AND ${LAST_CHECK} >= $4::timestamptz AND ${LAST_CHECK} < $1::timestamptz)
            + (SELECT count(*)::int FROM leads l
                WHERE l.category_id = c.id AND l.email_status_reason = 'queued' AND l.email_checked_at IS NULL
                  AND ${SELLABLE} AND ${LAST_CHECK} >= $1::timestamptz) AS due,
            r.requested_at, r.total, r.checked, r.finished_at
       FROM categories c LEFT JOIN recheck_requests r ON r.category_id = c.id
      WHERE $3::uuid IS NULL OR c.id = $3::uuid
      ORDER BY c.created_at, c.id`,
    [cutoff, day, categoryId ?? null, `${day}T00:00:00Z`],
  );
  return rows.map((row) => ({
    categoryId: row.category_id,
    due: row.due,
    run: row.requested_at
      ? {
          requestedAt: row.requested_at.toISOString(),
          total: row.total!,
          // Leads the sweep took; a lead imported during it is not among the total.
          checked: Math.min(row.checked!, row.total!),
          finishedAt: row.finished_at?.toISOString() ?? null,
        }
      : null,
  }));
}

/** Queues a re-check of the category's sellable leads; 409 while one is still running. */
export async function requestRecheck(categoryId: string, now = new Date()): Promise<RecheckOverview> {
  const { rows: found } = await pool().query("SELECT 1 FROM categories WHERE id = $1", [categoryId]);
  if (found.length === 0) throw notFound("Category not found");
  const { rowCount } = await pool()
    .query(
      // The total is what the category sells now: every sellable lead was checked before now.
      `INSERT INTO recheck_requests AS r (category_id, requested_at, total)
       SELECT c.id, $2, c.count FROM categories c WHERE c.id = $1::uuid
       ON CONFLICT (category_id) DO UPDATE SET requested_at = EXCLUDED.requested_at, total = EXCLUDED.total,
          checked = 0, cursor_at = NULL, cursor_id = 0, finished_at = NULL
        WHERE r.finished_at IS NOT NULL`,
      [categoryId, now],
    )
    .catch((error: { code?: string }) => {
      // The category was deleted meanwhile (foreign key violation).
      if (error.code === "23503") throw notFound("Category not found");
      throw error;
    });
  if (rowCount === 0) throw conflict("A re-check of this category is already running");
  const [queued] = await recheckOverview(now, categoryId);
  if (!queued) throw notFound("Category not found");
  return queued;
}

/** A claimed lead; `fresh`: the provider's verdict on it is under 24 hours old (reused). */
export type Claimed = { id: string; email: string; fresh: boolean };
/** A requested sweep's place: its category, and the last lead a claim took from it. */
export type SweepStep = { categoryId: string; lastAt: Date; lastId: string };

// The sweep's leads: the request's category, sellable, last verified or checked before the request,
// past the cursor, and not imported after the request. `r` is the request's row, or its values.
const sweptBy = (r: { category: string; requestedAt: string; cursorAt: string; cursorId: string }) =>
  `l.category_id = ${r.category} AND ${SELLABLE} AND ${LAST_CHECK} < ${r.requestedAt}
   AND (${LAST_CHECK}, l.id) > (COALESCE(${r.cursorAt}, '-infinity'), ${r.cursorId})
   AND l.created_at <= ${r.requestedAt}`;

/**
 * Up to `limit` leads of the oldest running request that has any left to take, locked (SKIP
 * LOCKED, as every re-check claim); null when none has.
 */
export async function claimRequested(
  client: PoolClient,
  limit: number,
  reusedSince: Date,
): Promise<{ rows: Claimed[]; step: SweepStep } | null> {
  const { rows: open } = await client.query<{
    category_id: string;
    requested_at: Date;
    cursor_at: Date | null;
    cursor_id: string;
  }>(
    `SELECT category_id, requested_at, cursor_at, cursor_id::text FROM recheck_requests
      WHERE finished_at IS NULL ORDER BY requested_at`,
  );
  for (const request of open) {
    // The cursor as parameters, so that it bounds the index scan.
    const { rows } = await client.query<Claimed & { at: Date }>(
      `SELECT l.id::text, l.email, COALESCE(l.provider_checked_at > $6::timestamptz, false) AS fresh,
              ${LAST_CHECK} AS at FROM leads l
        WHERE ${sweptBy({ category: "$1::uuid", requestedAt: "$2::timestamptz", cursorAt: "$3::timestamptz", cursorId: "$4::bigint" })}
        ORDER BY ${LAST_CHECK}, l.id LIMIT $5
        FOR NO KEY UPDATE SKIP LOCKED`,
      [request.category_id, request.requested_at, request.cursor_at, request.cursor_id, limit, reusedSince],
    );
    if (rows.length === 0) continue;
    const last = rows[rows.length - 1];
    return {
      rows: rows.map(({ id, email, fresh }) => ({ id, email, fresh })),
      step: { categoryId: request.category_id, lastAt: last.at, lastId: last.id },
    };
  }
  return null;
}

/**
 * Ends the requests nothing is left of. Run outside any claim: a lead another worker holds still
 * looks unchecked here, so its request stays open until that worker's claim commits.
 */
export async function finishSweeps(): Promise<void> {
  await pool().query(
    `UPDATE recheck_requests r SET finished_at = now()
      WHERE r.finished_at IS NULL AND NOT EXISTS (SELECT 1 FROM leads l WHERE ${sweptBy({
        category: "r.category_id",
        requestedAt: "r.requested_at",
        cursorAt: "r.cursor_at",
        cursorId: "r.cursor_id",
      })})`,
  );
}

/** Moves the request's cursor past a claim's leads (never back: claims commit in any order). */
export async function advanceSweep(client: PoolClient, step: SweepStep, taken: number): Promise<void> {
  await client.query(
    `UPDATE recheck_requests SET checked = checked + $4,
        cursor_at = CASE WHEN ($2::timestamptz, $3::bigint) > (COALESCE(cursor_at, '-infinity'), cursor_id) THEN $2 ELSE cursor_at END,
        cursor_id = CASE WHEN ($2::timestamptz, $3::bigint) > (COALESCE(cursor_at, '-infinity'), cursor_id) THEN $3 ELSE cursor_id END
      WHERE category_id = $1::uuid AND finished_at IS NULL`,
    [step.categoryId, step.lastAt, step.lastId, taken],
  );
}
