import "server-only";
import { adminEmail } from "@/lib/auth/admin-account";
import { db, type Tx } from "@/lib/db";
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

/** The provider key and where it comes from: the one stored in Settings wins over NOWPAYMENTS_API_KEY. */
export function nowPaymentsApiKey(settings: { nowPaymentsApiKeyEnc: string | null }): {
  key: string | null;
  source: "settings" | "environment" | "none";
} {
  const stored = settings.nowPaymentsApiKeyEnc ? decryptSecret(settings.nowPaymentsApiKeyEnc) : null;
  if (stored) return { key: stored, source: "settings" };
  const fromEnv = env().NOWPAYMENTS_API_KEY ?? null;
  return fromEnv ? { key: fromEnv, source: "environment" } : { key: null, source: "none" };
}

export async function getNowPaymentsApiKey(): Promise<string | null> {
  return nowPaymentsApiKey(await getSettings()).key;
}

/**
 * Where system notifications go, or null when the admin turned them off. Pass the transaction's
 * `tx` when inside one: asking the pool for a second connection while holding one can exhaust it
 * under load, every holder waiting for a connection none will free.
 */
export async function getNotificationRecipient(tx: Tx = db()): Promise<string | null> {
  // Without a settings row yet, the defaults apply: notifications on, sent to the first admin.
  const settings = await tx.settings.findUnique({
    where: { id: SETTINGS_ID },
    select: { enableNotifications: true, notificationEmail: true },
  });
  if (settings && !settings.enableNotifications) return null;
  if (settings?.notificationEmail) return settings.notificationEmail;
  return adminEmail(tx);
}
