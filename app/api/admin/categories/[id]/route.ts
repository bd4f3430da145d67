// PATCH /api/admin/categories/{id} - rename or describe a category
// DELETE /api/admin/categories/{id} - delete a category and its leads (409 while it has sales)
import { route } from "@/lib/api/handler";
import { deleteCategory, updateCategory } from "@/lib/categories/admin";
import { categoryUpdateSchema } from "@/lib/schemas/admin";
import { uuidParams } from "@/lib/schemas/common";

export const PATCH = route(
  { admin: true, params: uuidParams, body: categoryUpdateSchema },
  ({ params, body }) => updateCategory(params.id, body),
);

export const DELETE = route({ admin: true, params: uuidParams }, async ({ params }) => {
  await deleteCategory(params.id);
  return { success: true };
});
