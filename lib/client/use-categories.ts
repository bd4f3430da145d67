import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/fetcher";
import { categoriesQueryKey } from "@/lib/client/query-keys";

/** A category as GET /api/categories returns it (the product's `_id, title, count`, plus our description). */
export type PublicCategory = {
  _id: string;
  title: string;
  description: string;
  count: number;
  createdAt: string;
};

export function useCategories() {
  return useQuery({
    queryKey: categoriesQueryKey,
    queryFn: () => apiFetch<PublicCategory[]>("/api/categories"),
  });
}
