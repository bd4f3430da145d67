import "server-only";
import { randomBytes } from "node:crypto";
import type { Cookie } from "@/lib/cookie";

// A random id the buying browser keeps, so that pressing Buy Now again for the same package
// reuses its open checkout instead of opening another invoice. Not a secret and not a session:
// it only groups one browser's unpaid orders.
export const BROWSER_COOKIE = "lm_browser";
const SHAPE = /^[A-Za-z0-9_-]{22}$/;
const ONE_YEAR_SECONDS = 365 * 24 * 3600;

/**
 * The browser's id from the cookie it sent (`current`), and the cookie to set when it is new
 * (`https`: the request came over https, so the cookie is Secure).
 */
export function browserIdentity(
  current: string | undefined,
  https: boolean,
): { browserId: string; cookie: Cookie | null } {
  if (current && SHAPE.test(current)) return { browserId: current, cookie: null };
  const browserId = randomBytes(16).toString("base64url");
  return {
    browserId,
    cookie: {
      name: BROWSER_COOKIE,
      value: browserId,
      path: "/api/payment",
      maxAgeSeconds: ONE_YEAR_SECONDS,
      sameSite: "Lax",
      secure: https,
    },
  };
}
