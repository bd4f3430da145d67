// Shared by the admin integration tests. Each admin test file works in its own throw-away database:
// the dashboard figures and the settings row are store-wide, so other files' rows would blur them.
import { SignJWT } from "jose";
import { createTestDatabase, type TestDatabase } from "../support/database";

/** Call before importing any app module; points DATABASE_URL at a fresh database. */
export async function createOwnDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase("leadmarket_admin");
  process.env.DATABASE_URL = database.url;
  return database;
}

export function signToken(
  claims: { sub: string; pwv: number },
  options: { secret?: string; expiresAt?: number; audience?: string } = {},
): Promise<string> {
  return new SignJWT({ pwv: claims.pwv })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.sub)
    .setIssuer("leadmarket")
    .setAudience(options.audience ?? "leadmarket-admin")
    .setIssuedAt()
    .setExpirationTime(options.expiresAt ?? "12h")
    .sign(new TextEncoder().encode(options.secret ?? process.env.APP_SECRET));
}

export function csvUpload(csv: string, field = "file", name = "leads.csv"): FormData {
  const form = new FormData();
  form.append(field, new Blob([csv], { type: "text/csv" }), name);
  return form;
}
