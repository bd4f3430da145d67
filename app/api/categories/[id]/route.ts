import { route } from "@/lib/api/handler";
import { notFound } from "@/lib/errors";
import { findCategory } from "@/lib/categories/public";
import { uuidParams } from "@/lib/schemas/common";

// GET /api/categories/{id} - one category
export const GET = route({ params: uuidParams }, async ({ params }) => {
  const category = await findCategory(params.id);
  if (!category) throw notFound("Category not found");
  return category;
});
