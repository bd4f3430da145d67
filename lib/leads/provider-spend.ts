import "server-only";
import { pool } from "@/lib/db";
import { pgTransaction } from "@/lib/pg-transaction";

// What every call to the verification provider books first (docs/product-rules.md, "Verification"):
// the shared pace of its batches (one `paces` row for every instance) and the month's allowance of
// addresses (EMAIL_VERIFIER_MONTHLY_LIMIT). The re-checks (lib/leads/recheck.ts) wait for their
// slot; a claim (lib/orders/claim-checks.ts) takes what the pace has room for now. Imports never
// call the provider: they queue their leads for the re-checks.

// ZeroBounce allows 5 validatebatch calls a minute.
export const PROVIDER_BATCHES_PER_MINUTE = 5;
/** The pace of the provider's batches, shared by the re-checks and the claims. */
export const PROVIDER_BATCHES_PACE = "provider-batches";
/** A provider verdict younger than this is reused rather than asked again. */
export const VERDICT_REUSE_HOURS = 24;

/**
 * Waits so that at most `perSecond` units pass a second, shared by every caller of every instance:
 * each take books its slot in the pace's row (one statement, so no lock is held while waiting).
 */
export class Pace {
  constructor(
    private readonly name: string,
    private readonly perSecond: number,
  ) {}

  async take(units: number): Promise<void> {
    if (this.perSecond <= 0) return;
    const { rows } = await pool().query<{ wait_ms: number }>(
      `INSERT INTO paces AS p (name, next_at) VALUES ($1, clock_timestamp() + $2 * interval '1 ms')
       ON CONFLICT (name) DO UPDATE SET next_at = greatest(p.next_at, clock_timestamp()) + $2 * interval '1 ms'
       RETURNING extract(epoch FROM p.next_at - $2 * interval '1 ms' - clock_timestamp())::float * 1000 AS wait_ms`,
      [this.name, (units * 1000) / this.perSecond],
    );
    const wait = rows[0].wait_ms;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /**
   * Books, without waiting, as many of `wanted` units as fit before the pace's booked time would
   * run more than `aheadMs` past now; answers how many it booked (0 when the pace is that busy).
   */
  async takeNow(wanted: number, aheadMs: number): Promise<number> {
    if (this.perSecond <= 0) return wanted;
    const unitMs = 1000 / this.perSecond;
    return pgTransaction(pool(), async (client) => {
      await client.query(
        "INSERT INTO paces (name, next_at) VALUES ($1, clock_timestamp()) ON CONFLICT (name) DO NOTHING",
        [this.name],
      );
      const { rows } = await client.query<{ free_ms: number }>(
        `SELECT extract(epoch FROM clock_timestamp() - greatest(next_at, clock_timestamp()))::float * 1000 + $2
           AS free_ms FROM paces WHERE name = $1 FOR UPDATE`,
        [this.name, aheadMs],
      );
      // next_at keeps milliseconds, rounded: a pace just booked may read up to half of one ahead.
      const units = Math.max(0, Math.min(wanted, Math.floor((rows[0].free_ms + 1) / unitMs)));
      if (units > 0) {
        await client.query(
          `UPDATE paces SET next_at = greatest(next_at, clock_timestamp()) + $2 * interval '1 ms' WHERE name = $1`,
          [this.name, units * unitMs],
        );
      }
      return units;
    });
  }
}

export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7) + "-01";
}

/** Takes `wanted` addresses from the month's allowance; false (nothing taken) when it lacks them. */
export async function reserve(month: string, wanted: number, limit: number | null): Promise<boolean> {
  const { rowCount } = await pool().query(
    `INSERT INTO verifier_months AS m (month, sent) SELECT $1::date, $2::int WHERE $3::int IS NULL OR $2::int <= $3::int
     ON CONFLICT (month) DO UPDATE SET sent = m.sent + $2::int WHERE $3::int IS NULL OR m.sent + $2::int <= $3::int`,
    [month, wanted, limit],
  );
  return rowCount === 1;
}

export const MONTHLY_LIMIT_REACHED =
  "The monthly limit of addresses sent to the verification provider was reached";

/** Records a provider failure for the admin (Settings shows the last one). */
export async function recordVerifierError(message: string, at: Date): Promise<void> {
  await pool().query(
    `INSERT INTO verifier_months (month, last_error, last_error_at) VALUES ($1::date, $2, $3)
     ON CONFLICT (month) DO UPDATE SET last_error = $2, last_error_at = $3`,
    [monthOf(at), message, at],
  );
}
