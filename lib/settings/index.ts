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

export type KeySource = "settings" | "environment" | "none";

/** A key stored sealed in Settings wins over the environment's. */
function keyOf(
  sealed: string | null,
  fromEnvironment: string | undefined,
): { key: string | null; source: KeySource } {
  const stored = sealed ? decryptSecret(sealed) : null;
  if (stored) return { key: stored, source: "settings" };
  return fromEnvironment ? { key: fromEnvironment, source: "environment" } : { key: null, source: "none" };
}

/** The payment provider's key and where it comes from: Settings, else NOWPAYMENTS_API_KEY. */
export function nowPaymentsApiKey(settings: { nowPaymentsApiKeyEnc: string | null }) {
  return keyOf(settings.nowPaymentsApiKeyEnc, env().NOWPAYMENTS_API_KEY);
}

/** The verification provider's key and where it comes from: Settings, else EMAIL_VERIFIER_API_KEY. */
export function emailVerifierApiKey(settings: { emailVerifierApiKeyEnc: string | null }) {
  return keyOf(settings.emailVerifierApiKeyEnc, env().EMAIL_VERIFIER_API_KEY);
}

export async function getEmailVerifierApiKey(): Promise<string | null> {
  return emailVerifierApiKey(await getSettings()).key;
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
