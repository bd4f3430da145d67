import "server-only";
import { env } from "@/lib/env";

// Where a buyer's order lives. The download key is the only secret in these addresses.

/** Days a download link works after payment, or after the buyer asks for fresh links (/orders). */
export const DOWNLOAD_DAYS = 30;

export function orderPageUrl(key: string): string {
  return `${env().PUBLIC_BASE_URL}/order/${encodeURIComponent(key)}`;
}
