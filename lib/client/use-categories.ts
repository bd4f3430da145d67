import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/fetcher";
import { categoriesQueryKey } from "@/lib/client/query-keys";
import type { CategoryDto } from "@/lib/schemas/category";

/**
 * A category as GET /api/categories returns it: the product's `_id, title, count`, plus our
 * description, per-country counts and freshness.
 */
export type PublicCategory = CategoryDto;

export function useCategories() {
  return useQuery({
    queryKey: categoriesQueryKey,
    queryFn: () => apiFetch<PublicCategory[]>("/api/categories"),
  });
}
