import "server-only";
import { db } from "@/lib/db";
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

/** Where system notifications go, or null when the admin turned them off. */
export async function getNotificationRecipient(): Promise<string | null> {
  const settings = await getSettings();
  if (!settings.enableNotifications) return null;
  if (settings.notificationEmail) return settings.notificationEmail;
  const admin = await db().admin.findFirst({ select: { email: true }, orderBy: { createdAt: "asc" } });
  return admin?.email ?? null;
}
