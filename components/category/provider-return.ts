import { isDownloadKey } from "@/lib/orders/key";

// The provider's return address: the category page with our order key, plus NP_id after paying or
// `cancelled=1` after leaving the invoice.

/** What the provider's return address carries: our order key, its NP_id, and whether it was a cancel. */
export type ProviderReturn = { key: string | null; npId: string | null; cancelled: boolean };

export function readProviderReturn(): ProviderReturn {
  const query = new URLSearchParams(window.location.search);
  const key = query.get("order");
  const npId = query.get("NP_id");
  return {
    key: isDownloadKey(key) ? key : null,
    npId: npId && /^[A-Za-z0-9_-]{1,128}$/.test(npId) ? npId : null,
    cancelled: query.get("cancelled") === "1",
  };
}

/** Drops the return parameters from the address bar: the key stays out of history and bookmarks. */
export function forgetProviderReturn(): void {
  const url = new URL(window.location.href);
  for (const name of ["order", "NP_id", "cancelled"]) url.searchParams.delete(name);
  window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
}
