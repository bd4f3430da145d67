import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/fetcher";
import { categoriesQueryKey } from "@/lib/client/query-keys";
import type { CategoryDto } from "@/lib/schemas/category";

export function useCategories() {
  return useQuery({
    queryKey: categoriesQueryKey,
    queryFn: () => apiFetch<CategoryDto[]>("/api/categories"),
  });
}
