import { z } from "zod";
import { route } from "@/lib/api/handler";
import { notFound } from "@/lib/errors";
import { findCategory } from "@/lib/categories/public";
import { listLeadPreviews } from "@/lib/leads/previews";
import { LOCATIONS } from "@/lib/categories/location";
import { pagination } from "@/lib/schemas/common";

const query = pagination.extend({
  category: z.uuid("Invalid category id"),
  location: z.enum(LOCATIONS, "Choose USA or UK").optional(),
});

// GET /api/leads/filter?category=&location= - masked lead previews of one category (and country), paginated
export const GET = route({ query }, async ({ query }) => {
  if (!(await findCategory(query.category))) throw notFound("Category not found");
  return listLeadPreviews({
    categoryId: query.category,
    location: query.location,
    page: query.page,
    pageSize: query.pageSize,
  });
});
