import "server-only";
import { cache } from "react";
import { categoryImage } from "@/lib/categories/images";
import { cachedCategory, cachedCategoryPosition } from "@/lib/categories/cached-reads";
import { uuidParams } from "@/lib/schemas/common";

/**
 * One read per request, shared by the category layout, page and metadata. An id that is not a
 * UUID cannot exist, so it is "not found" without asking the database. Database failures throw.
 */
export const loadCategory = cache(async (id: string) =>
  uuidParams.safeParse({ id }).success ? cachedCategory(id) : null,
);

/** The category's image: the one its card shows on the home page. */
export const loadCategoryImage = cache(async (id: string) => categoryImage(await cachedCategoryPosition(id)));
