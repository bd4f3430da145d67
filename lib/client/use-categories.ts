import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/fetcher";
import type { CategoryDto } from "@/lib/schemas/category";

/**
 * A category as GET /api/categories returns it: the spec's `_id, title, count`, plus our
 * description, per-country counts and freshness.
 */
export type PublicCategory = CategoryDto;

/** Shared with the server, which pre-fills this key so the browser does not fetch the list again. */
export const categoriesQueryKey = ["categories"] as const;

export function useCategories() {
  return useQuery({
    queryKey: categoriesQueryKey,
    queryFn: () => apiFetch<PublicCategory[]>("/api/categories"),
  });
}
