import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/fetcher";
import type { OrderLookupBody } from "@/lib/schemas/orders";

// Client calls of Find my orders.

export function useOrderLookup() {
  return useMutation({
    mutationFn: (body: OrderLookupBody) =>
      apiFetch<{ success: true }>("/api/orders/lookup", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
  });
}
