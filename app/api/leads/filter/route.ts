import { route } from "@/lib/api/handler";
import { notFound } from "@/lib/errors";
import { findCategory } from "@/lib/categories/public";
import { listLeadPreviews } from "@/lib/leads/previews";
import { leadFilterQuery } from "@/lib/schemas/leads";

// GET /api/leads/filter?category=&location= - masked lead previews of one category (and country), paginated
export const GET = route({ query: leadFilterQuery }, async ({ query }) => {
  if (!(await findCategory(query.category))) throw notFound("Category not found");
  return listLeadPreviews({
    categoryId: query.category,
    location: query.location,
    page: query.page,
    pageSize: query.pageSize,
  });
});
