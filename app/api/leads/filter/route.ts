import { z } from "zod";
import { route } from "@/lib/api/handler";
import { notFound } from "@/lib/errors";
import { findCategory } from "@/lib/categories/public";
import { listLeadPreviews } from "@/lib/leads/previews";
import { pagination } from "@/lib/schemas/common";

const query = pagination.extend({ category: z.uuid("Invalid category id") });

// GET /api/leads/filter?category= - masked lead previews of one category, paginated
export const GET = route({ query }, async ({ query }) => {
  if (!(await findCategory(query.category))) throw notFound("Category not found");
  return listLeadPreviews({ categoryId: query.category, page: query.page, pageSize: query.pageSize });
});
