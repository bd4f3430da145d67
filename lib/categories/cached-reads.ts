import "server-only";
import { catalogueRead } from "@/lib/categories/cache";
import { categoryPosition, findCategory, listCategories } from "@/lib/categories/public";

// The catalogue as the public pages, the sitemap and GET /api/categories show it, cached under
// the catalogue tag (lib/categories/cache.ts).
export const cachedCategories = catalogueRead("categories", listCategories, []);
export const cachedCategory = catalogueRead("category", findCategory, null);
export const cachedCategoryPosition = catalogueRead("category-position", categoryPosition, 0);
