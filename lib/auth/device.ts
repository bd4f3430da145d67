import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { signLinkToken, verifyLinkToken } from "@/lib/auth/link-token";
import type { Cookie } from "@/lib/cookie";
import { env } from "@/lib/env";

// The device cookie (OWASP's "device cookies" against lock-out): set at a successful sign-in,
// signed with APP_SECRET and bound to the admin email, it marks the browser as one that signed
// in before. Sign-in from such a browser is throttled by its own failures only, so failures from
// other addresses cannot lock the admin out of their usual device.
export const DEVICE_COOKIE = "lm_admin_device";
const AUDIENCE = "leadmarket-admin-device";
const LIFETIME_SECONDS = 180 * 24 * 3600;

// The email is not readable from the cookie, only checkable against it.
const emailTag = (email: string) => createHash("sha256").update(email).digest("base64url");

/** The device id of a valid cookie for this (normalised) email, or null. */
export async function trustedDevice(cookie: string | undefined, email: string): Promise<string | null> {
  if (!cookie) return null;
  try {
    const payload = await verifyLinkToken(AUDIENCE, cookie);
    return payload.eml === emailTag(email) && typeof payload.sub === "string" ? payload.sub : null;
  } catch {
    return null;
  }
}

/** The cookie that marks this browser as a known device for this email. */
export async function deviceCookie(email: string, deviceId: string | null): Promise<Cookie> {
  const token = await signLinkToken({
    audience: AUDIENCE,
    subject: deviceId ?? randomUUID(),
    validSeconds: LIFETIME_SECONDS,
    claims: { eml: emailTag(email) },
  });
  return {
    name: DEVICE_COOKIE,
    value: token,
    path: "/api/admin",
    maxAgeSeconds: LIFETIME_SECONDS,
    sameSite: "Strict",
    secure: env().PUBLIC_BASE_URL.startsWith("https:"),
  };
}
