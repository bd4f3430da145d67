import "server-only";
import { pool } from "@/lib/db";
import { pgTransaction } from "@/lib/pg-transaction";

// A pace shared by every instance: one `paces` row per name holds the time up to which it is booked.

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
