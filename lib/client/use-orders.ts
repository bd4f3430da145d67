import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/fetcher";
import type { InvoiceDetailsInput, InvoiceSummary } from "@/lib/schemas/invoice";
import type { OrderLookupBody, ReplacementAnswer } from "@/lib/schemas/orders";

// Client calls of Find my orders and the order page.

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

/** Files a replacement claim: a list of addresses as JSON, or a CSV file as an upload. */
export function useReplacementClaim(orderKey: string) {
  return useMutation({
    mutationFn: (input: { emails: string[] } | { file: File }) => {
      const url = `/api/orders/${encodeURIComponent(orderKey)}/replacement`;
      if ("file" in input) {
        const form = new FormData();
        form.append("file", input.file);
        return apiFetch<ReplacementAnswer>(url, { method: "POST", body: form });
      }
      return apiFetch<ReplacementAnswer>(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ emails: input.emails }),
      });
    },
  });
}

/** Issues the order's invoice with the buyer's details, or corrects them (once). */
export function useInvoiceDetails(orderKey: string) {
  return useMutation({
    mutationFn: (body: InvoiceDetailsInput) =>
      apiFetch<InvoiceSummary>(`/api/orders/${encodeURIComponent(orderKey)}/invoice`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
  });
}
