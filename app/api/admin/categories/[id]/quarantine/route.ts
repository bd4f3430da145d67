// DELETE /api/admin/categories/{id}/quarantine - take the category's flagged leads off sale (sold ones stay in their files, marked invalid)
import { route } from "@/lib/api/handler";
import { deleteQuarantined } from "@/lib/categories/quarantine";
import { uuidParams } from "@/lib/schemas/common";

export const DELETE = route({ admin: true, params: uuidParams }, async ({ params }) => ({
  success: true,
  deleted: await deleteQuarantined(params.id),
}));
