// GET /api/admin/categories/rechecks - per category: leads due for a re-check, and the progress of "Re-check now"
import { route } from "@/lib/api/handler";
import { recheckOverview } from "@/lib/leads/recheck-queue";

export const GET = route({ admin: true }, async () =>
  Response.json(await recheckOverview(), { headers: { "cache-control": "no-store" } }),
);
