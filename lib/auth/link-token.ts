import "server-only";
import { jwtVerify, SignJWT, type JWTPayload } from "jose";
import { env } from "@/lib/env";

// The signed tokens the app hands out (find-my-orders sign-in and privacy confirmation links, the
// admin's device cookie): HS256 keyed by APP_SECRET, for one audience, about one subject, valid
// for a set time.

const ISSUER = "leadmarket";

function key(): Uint8Array {
  return new TextEncoder().encode(env().APP_SECRET);
}

export function signLinkToken(
  link: { audience: string; subject: string; validSeconds: number; claims?: JWTPayload },
  now = new Date(),
): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT(link.claims ?? {})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(link.subject)
    .setIssuer(ISSUER)
    .setAudience(link.audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + link.validSeconds)
    .sign(key());
}

/** The token's claims when it is valid for `audience` at `now`; throws jose's errors otherwise. */
export async function verifyLinkToken(
  audience: string,
  token: string,
  now = new Date(),
): Promise<JWTPayload> {
  const { payload } = await jwtVerify(token, key(), {
    algorithms: ["HS256"],
    issuer: ISSUER,
    audience,
    requiredClaims: ["exp", "sub"],
    currentDate: now,
  });
  return payload;
}
