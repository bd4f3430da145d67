import { QueryClient } from "@tanstack/react-query";

// The product's client data rules: no retries, no refetch on focus, data never stale, no polling.
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: Infinity, refetchInterval: false },
      mutations: { retry: false },
    },
  });
}
