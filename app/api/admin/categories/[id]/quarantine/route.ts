// DELETE /api/admin/categories/{id}/quarantine - delete the category's quarantined leads
import { route } from "@/lib/api/handler";
import { deleteQuarantined } from "@/lib/categories/quarantine";
import { uuidParams } from "@/lib/schemas/common";

export const DELETE = route({ admin: true, params: uuidParams }, async ({ params }) => ({
  success: true,
  deleted: await deleteQuarantined(params.id),
}));
