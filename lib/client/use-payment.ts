import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "@/lib/client/fetcher";
import type { DownloadFormat } from "@/lib/schemas/formats";
import type { CreatePaymentAnswer, CreatePaymentRequest, PaymentStatusAnswer } from "@/lib/schemas/payment";

// Client calls of the purchase flow.

export function useCreatePayment() {
  return useMutation({
    mutationFn: (body: CreatePaymentRequest) =>
      apiFetch<CreatePaymentAnswer>("/api/payment/create", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
  });
}

/** The order's status by its key; `returnedPaymentId` is the NP_id a provider return carries. */
export function fetchPaymentStatus(
  paymentId: string,
  returnedPaymentId?: string,
  signal?: AbortSignal,
): Promise<PaymentStatusAnswer> {
  const query = returnedPaymentId ? `?${new URLSearchParams({ NP_id: returnedPaymentId })}` : "";
  return apiFetch<PaymentStatusAnswer>(`/api/payment/status/${encodeURIComponent(paymentId)}${query}`, {
    cache: "no-store",
    signal,
  });
}

/** Tells the server the buyer left the invoice unpaid (the provider's cancel return). */
export function cancelCheckout(key: string): Promise<PaymentStatusAnswer> {
  return apiFetch<PaymentStatusAnswer>(`/api/orders/${encodeURIComponent(key)}/cancel`, { method: "POST" });
}

/**
 * Whether this tab may start the automatic download of an order: true once per order across all
 * tabs of this browser (the invoice's return tab and the tab that opened it both see the payment
 * complete). The Web Locks API makes the check-and-set atomic between tabs where it exists.
 */
export async function claimAutoDownload(key: string): Promise<boolean> {
  const name = `leadmarket:downloaded:${key}`;
  const claim = (): boolean => {
    try {
      if (localStorage.getItem(name)) return false;
      localStorage.setItem(name, new Date().toISOString());
      return true;
    } catch {
      // Storage disabled: this tab downloads; nothing else can be coordinated.
      return true;
    }
  };
  if (typeof navigator !== "undefined" && navigator.locks) {
    return navigator.locks.request(name, async () => claim());
  }
  return claim();
}

export function downloadUrl(
  downloadKey: string,
  options: { categoryId: string; count: number; format?: DownloadFormat },
): string {
  const query = new URLSearchParams({ category: options.categoryId, count: String(options.count) });
  if (options.format && options.format !== "csv") query.set("format", options.format);
  return `/api/leads/download/${encodeURIComponent(downloadKey)}?${query}`;
}

/** Starts a file download without leaving the page. */
export function startDownload(url: string, fileName: string): void {
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  document.body.appendChild(link);
  link.click();
  link.remove();
}

// Session storage: `paymentId` is the product's key; `paymentContext` remembers which category and
// package that payment was for (and its invoice URL for Reopen Payment), so another category's
// page does not offer to check a different order.
export type PaymentContext = {
  paymentId: string;
  categoryId: string;
  packageType: string;
  /** The order's country; absent in contexts stored before locations existed (USA). */
  location?: string;
  invoiceUrl?: string;
};

export function savePayment(context: PaymentContext): void {
  try {
    sessionStorage.setItem("paymentId", context.paymentId);
    sessionStorage.setItem("paymentContext", JSON.stringify(context));
  } catch {
    // Storage disabled: the flow still works for this page view.
  }
}

export function loadPayment(
  categoryId: string,
  packageType: string,
  location: string,
): PaymentContext | null {
  try {
    const paymentId = sessionStorage.getItem("paymentId");
    const context = JSON.parse(sessionStorage.getItem("paymentContext") ?? "null") as PaymentContext | null;
    if (!paymentId || !context || context.paymentId !== paymentId) return null;
    return context.categoryId === categoryId &&
      context.packageType === packageType &&
      (context.location ?? "USA") === location
      ? context
      : null;
  } catch {
    return null;
  }
}
