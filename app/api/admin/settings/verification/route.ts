// GET /api/admin/settings/verification - the verification provider's credits left, this month's use and the last error (never the key)
import { route } from "@/lib/api/handler";
import { getVerificationStatus } from "@/lib/settings/verification";

export const GET = route({ admin: true }, async () =>
  Response.json(await getVerificationStatus(), { headers: { "cache-control": "no-store" } }),
);
