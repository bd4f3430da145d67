// The admin token lives in local storage as `adminToken` (docs/product-rules.md) and is sent as
// `Authorization: Bearer {token}` only when present. A 401 from any admin call announces itself
// with a window event so the dashboard can send the admin back to the login page.
import { HttpError } from "@/lib/client/fetcher";

export const ADMIN_TOKEN_KEY = "adminToken";
export const ADMIN_UNAUTHORIZED_EVENT = "admin:unauthorized";

export function getAdminToken(): string | null {
  if (typeof window === "undefined") return null;
  try {
    return window.localStorage.getItem(ADMIN_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setAdminToken(token: string): void {
  window.localStorage.setItem(ADMIN_TOKEN_KEY, token);
}

export function clearAdminToken(): void {
  window.localStorage.removeItem(ADMIN_TOKEN_KEY);
}

export function adminHeaders(extra: HeadersInit = {}): Headers {
  const headers = new Headers(extra);
  const token = getAdminToken();
  if (token) headers.set("Authorization", `Bearer ${token}`);
  return headers;
}

/** Fetches an admin endpoint; a non-OK answer becomes an HttpError, a 401 also fires the event. */
export async function adminRequest(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, { credentials: "include", ...init, headers: adminHeaders(init.headers) });
  if (!response.ok) {
    if (response.status === 401) window.dispatchEvent(new Event(ADMIN_UNAUTHORIZED_EVENT));
    throw new HttpError(response.status, (await response.text()) || response.statusText);
  }
  return response;
}

export async function adminJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  return (await (await adminRequest(url, init)).json()) as T;
}

/** Sends a JSON body with the given method. */
export function adminSend<T>(url: string, method: string, body: unknown): Promise<T> {
  return adminJson<T>(url, {
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** The file name a Content-Disposition header gives: the UTF-8 `filename*` first, else `filename`. */
function fileNameOf(disposition: string): string | null {
  const extended = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition);
  if (extended) return decodeURIComponent(extended[1]);
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
}

/** Downloads an authenticated file (exports, attachments) under the server's file name. */
export async function adminDownload(url: string, fallbackName: string): Promise<void> {
  const response = await adminRequest(url);
  const disposition = response.headers.get("content-disposition") ?? "";
  const name = fileNameOf(disposition) ?? fallbackName;
  const blobUrl = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = blobUrl;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(blobUrl), 10_000);
}
