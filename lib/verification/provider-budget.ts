import "server-only";
import type { Pool, PoolClient } from "pg";
import { db, pool } from "@/lib/db";
import { env } from "@/lib/env";
import { Pace } from "@/lib/limits/pace";

// What every call to the verification provider books first (docs/product-rules.md, "Verification"):
// the shared pace of its batches (one `paces` row for every instance) and the month's allowance of
// addresses (EMAIL_VERIFIER_MONTHLY_LIMIT), both kept per UTC month in `verifier_months` with what
// our checks found invalid and the last error. The re-checks (lib/leads/recheck) wait for their
// slot; a claim (lib/orders/claim-checks.ts) takes what the pace has room for now. Imports never
// call the provider: they queue their leads for the re-checks.

// ZeroBounce allows 5 validatebatch calls a minute.
export const PROVIDER_BATCHES_PER_MINUTE = 5;
/** A provider verdict younger than this is reused rather than asked again. */
export const VERDICT_REUSE_HOURS = 24;

export const MONTHLY_LIMIT_REACHED =
  "The monthly limit of addresses sent to the verification provider was reached";

/** The pace of the provider's batches, shared by the re-checks and the claims of every instance. */
export function providerBatches(perMinute: number = PROVIDER_BATCHES_PER_MINUTE): Pace {
  return new Pace("provider-batches", perMinute / 60);
}

/** The provider's month of `at` (UTC), as `verifier_months.month` holds it: "2026-11-01". */
export function providerMonth(at: Date): string {
  return at.toISOString().slice(0, 7) + "-01";
}

/** Addresses the provider may be sent a month, as configured; null: no cap. */
export function configuredMonthlyLimit(): number | null {
  return env().EMAIL_VERIFIER_MONTHLY_LIMIT ?? null;
}

/** Takes `wanted` addresses from the allowance of `at`'s month; false (nothing taken) when it lacks them. */
export async function reserveAddresses(at: Date, wanted: number, limit: number | null): Promise<boolean> {
  const { rowCount } = await pool().query(
    `INSERT INTO verifier_months AS m (month, sent) SELECT $1::date, $2::int WHERE $3::int IS NULL OR $2::int <= $3::int
     ON CONFLICT (month) DO UPDATE SET sent = m.sent + $2::int WHERE $3::int IS NULL OR m.sent + $2::int <= $3::int`,
    [providerMonth(at), wanted, limit],
  );
  return rowCount === 1;
}

/** Records a provider failure for the admin (Settings shows the last one). */
export async function recordVerifierError(message: string, at: Date): Promise<void> {
  await pool().query(
    `INSERT INTO verifier_months (month, last_error, last_error_at) VALUES ($1::date, $2, $3)
     ON CONFLICT (month) DO UPDATE SET last_error = $2, last_error_at = $3`,
    [providerMonth(at), message, at],
  );
}

/** Adds addresses our checks found invalid to `at`'s month (the dashboard shows them), in `client`'s transaction. */
export async function countInvalidFound(client: Pool | PoolClient, invalid: number, at: Date): Promise<void> {
  if (invalid === 0) return;
  await client.query(
    `INSERT INTO verifier_months AS m (month, invalid_found) VALUES ($1::date, $2)
     ON CONFLICT (month) DO UPDATE SET invalid_found = m.invalid_found + $2`,
    [providerMonth(at), invalid],
  );
}

/** The last provider failure recorded, of any month; null when none was. */
export async function lastVerifierError(): Promise<{ message: string; at: Date } | null> {
  const month = await db().verifierMonth.findFirst({
    where: { lastErrorAt: { not: null } },
    orderBy: { lastErrorAt: "desc" },
    select: { lastError: true, lastErrorAt: true },
  });
  return month?.lastError && month.lastErrorAt ? { message: month.lastError, at: month.lastErrorAt } : null;
}

/** The provider's use in `at`'s month: addresses sent, and addresses our checks found invalid. */
export async function monthUse(at: Date): Promise<{ sent: number; invalidFound: number }> {
  const month = await db().verifierMonth.findUnique({
    where: { month: new Date(providerMonth(at)) },
    select: { sent: true, invalidFound: true },
  });
  return { sent: month?.sent ?? 0, invalidFound: month?.invalidFound ?? 0 };
}
