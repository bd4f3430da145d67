import "server-only";
import { db } from "@/lib/db";
import { conflict } from "@/lib/errors";
import { emailVerifierApiKey, getSettings, nowPaymentsApiKey } from "@/lib/settings";
import { encryptSecret, maskSecret } from "@/lib/settings/crypto";
import {
  sellerIdentityFields,
  type SellerIdentity,
  type SettingsDto,
  type SettingsUpdate,
} from "@/lib/schemas/admin";

const SELLER_FIELDS = Object.keys(sellerIdentityFields) as (keyof SellerIdentity)[];

/** The seller's identity as stored ("" for a field not set). */
export function sellerIdentity(settings: SellerIdentity): SellerIdentity {
  return Object.fromEntries(SELLER_FIELDS.map((field) => [field, settings[field]])) as SellerIdentity;
}

// The admin's view of the settings. The providers' keys go in sealed and only ever come out masked.
export async function getAdminSettings(adminId: string): Promise<SettingsDto> {
  const [settings, admin] = await Promise.all([
    getSettings(),
    db().admin.findUniqueOrThrow({ where: { id: adminId }, select: { email: true } }),
  ]);
  const { key, source } = nowPaymentsApiKey(settings);
  const verifier = emailVerifierApiKey(settings);
  return {
    ...sellerIdentity(settings),
    vatRatePercent: settings.vatRatePercent.toNumber(),
    email: admin.email,
    notificationEmail: settings.notificationEmail ?? "",
    nowPaymentsApiKey: key ? maskSecret(key) : "",
    nowPaymentsApiKeySource: source,
    emailVerifierApiKey: verifier.key ? maskSecret(verifier.key) : "",
    emailVerifierApiKeySource: verifier.source,
    autoRefreshDashboard: settings.autoRefreshDashboard,
    enableNotifications: settings.enableNotifications,
    privacyNotices: settings.privacyNotices,
  };
}

export async function updateAdminSettings(adminId: string, update: SettingsUpdate): Promise<SettingsDto> {
  if (update.email !== undefined) {
    const email = update.email.toLowerCase();
    const taken = await db().admin.findFirst({
      where: { email, NOT: { id: adminId } },
      select: { id: true },
    });
    if (taken) throw conflict("That email is already used by another account");
    // The login email is the admin's own; changing it changes how they sign in.
    await db().admin.update({ where: { id: adminId }, data: { email }, select: { id: true } });
  }
  const data: {
    notificationEmail?: string | null;
    nowPaymentsApiKeyEnc?: string;
    emailVerifierApiKeyEnc?: string;
    autoRefreshDashboard?: boolean;
    enableNotifications?: boolean;
    vatRatePercent?: number;
    privacyNotices?: boolean;
  } & Partial<SellerIdentity> = {};
  for (const field of SELLER_FIELDS) if (update[field] !== undefined) data[field] = update[field];
  if (update.notificationEmail !== undefined) {
    data.notificationEmail = update.notificationEmail === "" ? null : update.notificationEmail.toLowerCase();
  }
  if (update.nowPaymentsApiKey !== undefined)
    data.nowPaymentsApiKeyEnc = encryptSecret(update.nowPaymentsApiKey);
  if (update.emailVerifierApiKey !== undefined)
    data.emailVerifierApiKeyEnc = encryptSecret(update.emailVerifierApiKey);
  if (update.vatRatePercent !== undefined) data.vatRatePercent = update.vatRatePercent;
  if (update.autoRefreshDashboard !== undefined) data.autoRefreshDashboard = update.autoRefreshDashboard;
  if (update.enableNotifications !== undefined) data.enableNotifications = update.enableNotifications;
  if (update.privacyNotices !== undefined) data.privacyNotices = update.privacyNotices;
  if (Object.keys(data).length > 0) {
    await getSettings();
    await db().settings.update({ where: { id: 1 }, data, select: { id: true } });
  }
  return getAdminSettings(adminId);
}
