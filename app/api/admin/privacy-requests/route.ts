// GET /api/admin/privacy-requests - the latest GDPR requests (masked emails only)
import { route } from "@/lib/api/handler";
import { listPrivacyRequests } from "@/lib/privacy/requests";

export const GET = route({ admin: true }, async () =>
  Response.json(await listPrivacyRequests(), { headers: { "cache-control": "no-store" } }),
);
