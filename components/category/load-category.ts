import "server-only";
import { cache } from "react";
import { findCategory } from "@/lib/leads/categories";
import { uuidParams } from "@/lib/schemas/common";

/**
 * One read per request, shared by the category layout, page and metadata. An id that is not a
 * UUID cannot exist, so it is "not found" without asking the database. Database failures throw.
 */
export const loadCategory = cache(async (id: string) =>
  uuidParams.safeParse({ id }).success ? findCategory(id) : null,
);
