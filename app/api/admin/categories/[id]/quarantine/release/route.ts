// POST /api/admin/categories/{id}/quarantine/release - keep the category's flagged leads on sale, clearing their flags
import { route } from "@/lib/api/handler";
import { releaseQuarantine } from "@/lib/categories/quarantine";
import { uuidParams } from "@/lib/schemas/common";

export const POST = route({ admin: true, params: uuidParams }, async ({ params }) => ({
  success: true,
  released: await releaseQuarantine(params.id),
}));
