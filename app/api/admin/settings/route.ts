// GET /api/admin/settings - the settings record (API keys masked)
// PATCH /api/admin/settings - change any of email, notificationEmail, nowPaymentsApiKey, emailVerifierApiKey and the switches
import { route } from "@/lib/api/handler";
import { kickNotices, releaseWaitingLeads } from "@/lib/privacy/notices";
import { getAdminSettings, updateAdminSettings } from "@/lib/settings/admin";
import { settingsUpdateSchema } from "@/lib/schemas/admin";

export const GET = route({ admin: true }, ({ admin }) => getAdminSettings(admin.adminId));

export const PATCH = route({ admin: true, body: settingsUpdateSchema }, async ({ admin, body }) => {
  const saved = await updateAdminSettings(admin.adminId, body);
  // Notices turned off: the UK leads waiting for theirs go on sale now. On, the waiting ones go at
  // once should this save have completed the seller's identity they need.
  if (body.privacyNotices === false) await releaseWaitingLeads();
  else kickNotices();
  return saved;
});
