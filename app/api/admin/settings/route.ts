// GET /api/admin/settings - the settings record (API keys masked)
// PATCH /api/admin/settings - change any of email, notificationEmail, nowPaymentsApiKey, emailVerifierApiKey and the two switches
import { route } from "@/lib/api/handler";
import { getAdminSettings, updateAdminSettings } from "@/lib/settings/admin";
import { settingsUpdateSchema } from "@/lib/schemas/admin";

export const GET = route({ admin: true }, ({ admin }) => getAdminSettings(admin.adminId));

export const PATCH = route({ admin: true, body: settingsUpdateSchema }, ({ admin, body }) =>
  updateAdminSettings(admin.adminId, body),
);
