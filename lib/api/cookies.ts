import "server-only";
import type { Cookie } from "@/lib/cookie";

/** The Set-Cookie header value for `cookie`; always HttpOnly, since no page script reads ours. */
export function setCookieHeader(cookie: Cookie): string {
  const secure = cookie.secure ? "; Secure" : "";
  return `${cookie.name}=${cookie.value}; Path=${cookie.path}; Max-Age=${cookie.maxAgeSeconds}; HttpOnly; SameSite=${cookie.sameSite}${secure}`;
}
