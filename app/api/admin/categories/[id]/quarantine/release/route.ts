// POST /api/admin/categories/{id}/quarantine/release - make the category's quarantined leads sellable again
import { route } from "@/lib/api/handler";
import { releaseQuarantine } from "@/lib/categories/quarantine";
import { uuidParams } from "@/lib/schemas/common";

export const POST = route({ admin: true, params: uuidParams }, async ({ params }) => ({
  success: true,
  released: await releaseQuarantine(params.id),
}));
