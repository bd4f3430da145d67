// GET /api/admin/categories/quarantine - flagged leads and held claim rows per category
import { route } from "@/lib/api/handler";
import { quarantineCounts } from "@/lib/categories/quarantine";

export const GET = route({ admin: true }, async () =>
  Response.json(await quarantineCounts(), { headers: { "cache-control": "no-store" } }),
);
