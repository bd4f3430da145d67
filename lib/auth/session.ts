import "server-only";
import { jwtVerify, SignJWT } from "jose";
import { z } from "zod";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { unauthorized } from "@/lib/errors";

export { hashPassword, verifyPassword } from "@/lib/auth/password";

// All token and password code lives here. Tokens carry the admin id and a "password version"
// (the time of the last password change), so a change of password voids every earlier token.
const TOKEN_LIFETIME = "12h";
const ISSUER = "leadmarket";
const AUDIENCE = "leadmarket-admin";

export type AdminSession = { adminId: string; email: string };

function key(): Uint8Array {
  return new TextEncoder().encode(env().APP_SECRET);
}

export function signAdminToken(admin: { id: string; passwordChangedAt: Date }): Promise<string> {
  return new SignJWT({ pwv: admin.passwordChangedAt.getTime() })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(admin.id)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(TOKEN_LIFETIME)
    .sign(key());
}

/** Resolves the admin behind a bearer token, or throws 401. */
export async function verifyAdminToken(token: string): Promise<AdminSession> {
  let payload: { sub?: string; pwv?: unknown };
  try {
    ({ payload } = await jwtVerify(token, key(), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      // A token without an expiry or a subject is not ours, and none lives longer than we issue.
      requiredClaims: ["exp", "iat", "sub"],
      maxTokenAge: TOKEN_LIFETIME,
    }));
  } catch {
    throw unauthorized("Invalid or expired token");
  }
  if (!z.uuid().safeParse(payload.sub).success || typeof payload.pwv !== "number") {
    throw unauthorized("Invalid or expired token");
  }
  const admin = await db().admin.findFirst({
    where: { id: payload.sub },
    select: { id: true, email: true, passwordChangedAt: true },
  });
  if (!admin || admin.passwordChangedAt.getTime() !== payload.pwv) {
    throw unauthorized("Invalid or expired token");
  }
  return { adminId: admin.id, email: admin.email };
}
