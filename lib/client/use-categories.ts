import { useEffect, useState } from "react";
import { apiFetch } from "@/lib/client/fetcher";
import type { CategoryDto } from "@/lib/schemas/category";

export type CategoriesState = { data?: CategoryDto[]; error?: unknown; isPending: boolean };

/**
 * The home page's categories: those the server rendered the page with, or, when the server could
 * not read them (`initial` null), fetched once from the API. A plain fetch rather than React Query,
 * so the home page does not load it; same rules: no retry, no refetch.
 */
export function useCategories(initial: CategoryDto[] | null): CategoriesState {
  const [state, setState] = useState<{ data?: CategoryDto[]; error?: unknown }>(
    initial ? { data: initial } : {},
  );
  const rendered = initial !== null;

  useEffect(() => {
    if (rendered) return;
    let active = true;
    apiFetch<CategoryDto[]>("/api/categories").then(
      (data) => active && setState({ data }),
      (error: unknown) => active && setState({ error }),
    );
    return () => {
      active = false;
    };
  }, [rendered]);

  return { ...state, isPending: state.data === undefined && state.error === undefined };
}
