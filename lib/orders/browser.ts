import "server-only";
import { randomBytes } from "node:crypto";
import type { NextRequest } from "next/server";

// A random id the buying browser keeps, so that pressing Buy Now again for the same package
// reuses its open checkout instead of opening another invoice. Not a secret and not a session:
// it only groups one browser's unpaid orders.
const COOKIE = "lm_browser";
const SHAPE = /^[A-Za-z0-9_-]{22}$/;
const ONE_YEAR_SECONDS = 365 * 24 * 3600;

/** The browser's id, and the Set-Cookie header to send when it is new. */
export function browserIdentity(request: NextRequest): { browserId: string; setCookie: string | null } {
  const current = request.cookies.get(COOKIE)?.value;
  if (current && SHAPE.test(current)) return { browserId: current, setCookie: null };
  const browserId = randomBytes(16).toString("base64url");
  const secure = request.nextUrl.protocol === "https:" ? "; Secure" : "";
  return {
    browserId,
    setCookie: `${COOKIE}=${browserId}; Path=/api/payment; Max-Age=${ONE_YEAR_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
  };
}
