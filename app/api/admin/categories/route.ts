// GET /api/admin/categories - every category with its lead count
// POST /api/admin/categories - create a category
import { route } from "@/lib/api/handler";
import { createCategory } from "@/lib/categories/admin";
import { listAllCategories } from "@/lib/categories/public";
import { categoryCreateSchema } from "@/lib/schemas/admin";

export const GET = route({ admin: true }, async () =>
  Response.json(await listAllCategories(), { headers: { "cache-control": "no-store" } }),
);

export const POST = route({ admin: true, body: categoryCreateSchema }, async ({ body }) =>
  Response.json(await createCategory(body), { status: 201 }),
);
