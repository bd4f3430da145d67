// Article 14 notices on or off in a test store's Settings. Tests about something else turn them
// off, so UK rows sell from their import; tests/integration/privacy-notices.test.ts has them on.
import type { Pool } from "pg";

export async function setPrivacyNotices(pool: Pool, on: boolean): Promise<void> {
  await pool.query(
    "INSERT INTO settings (id, privacy_notices) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET privacy_notices = $1",
    [on],
  );
}
