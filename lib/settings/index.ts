import "server-only";
import type { PoolClient } from "pg";
import { db, pool } from "@/lib/db";
import { env } from "@/lib/env";
import { decryptSecret } from "@/lib/settings/crypto";

const SETTINGS_ID = 1;

/** The settings row, created with its defaults on first use. */
export async function getSettings() {
  const existing = await db().settings.findUnique({ where: { id: SETTINGS_ID } });
  if (existing) return existing;
  // ON CONFLICT DO NOTHING: concurrent first requests (two buyers at once on a fresh store) must
  // not collide on the primary key, which Prisma's upsert does not guarantee.
  await db().settings.createMany({ data: [{ id: SETTINGS_ID }], skipDuplicates: true });
  return db().settings.findUniqueOrThrow({ where: { id: SETTINGS_ID } });
}

/** The provider key: the one stored in Settings wins over NOWPAYMENTS_API_KEY. */
export async function getNowPaymentsApiKey(): Promise<string | null> {
  const settings = await getSettings();
  const stored = settings.nowPaymentsApiKeyEnc ? decryptSecret(settings.nowPaymentsApiKeyEnc) : null;
  return stored ?? env().NOWPAYMENTS_API_KEY ?? null;
}

/**
 * Where system notifications go, or null when the admin turned them off. Pass the transaction's
 * client when inside one: asking the shared pool for a second connection while holding one can
 * exhaust it under load, every holder waiting for a connection none will free.
 */
export async function getNotificationRecipient(
  client: Pick<PoolClient, "query"> = pool(),
): Promise<string | null> {
  // Without a settings row yet, the defaults apply: notifications on, sent to the first admin.
  const { rows } = await client.query<{ recipient: string | null }>(
    `SELECT CASE WHEN COALESCE(s.enable_notifications, true)
                 THEN COALESCE(s.notification_email, (SELECT email FROM admins ORDER BY created_at LIMIT 1))
            END AS recipient
       FROM (SELECT 1) AS one LEFT JOIN settings s ON s.id = $1`,
    [SETTINGS_ID],
  );
  return rows[0]?.recipient ?? null;
}
