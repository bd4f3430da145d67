import "server-only";
import { categoryHref, DEFAULT_LOCATION, type Location } from "@/lib/location";
import { env } from "@/lib/env";
import type { PackageId } from "@/lib/packages";

// Where a buyer's order lives. The download key is the only secret in these addresses.

/** Days a download link works after payment, or after the buyer asks for fresh links (/orders). */
export const DOWNLOAD_DAYS = 30;

export function orderPageUrl(key: string): string {
  return `${env().PUBLIC_BASE_URL}/order/${encodeURIComponent(key)}`;
}

/** The order's invoice PDF (docs/product-rules.md, "Invoices"), once the buyer entered their details. */
export function invoiceUrl(key: string): string {
  return `${env().PUBLIC_BASE_URL}/api/orders/${encodeURIComponent(key)}/invoice`;
}

/** Where the provider sends the buyer back: the category page, which finds the order by its key. */
export function returnUrlFor(
  categoryId: string,
  packageType: PackageId,
  downloadKey: string,
  location: Location = DEFAULT_LOCATION,
): string {
  return `${env().PUBLIC_BASE_URL}${categoryHref(categoryId, location, packageType)}&order=${downloadKey}`;
}
