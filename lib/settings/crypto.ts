import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "@/lib/env";

// Secrets at rest (the provider API key) are sealed with AES-256-GCM under a key derived from
// APP_SECRET. Format: v1.<iv>.<tag>.<ciphertext>, each base64url.
function key(): Buffer {
  return Buffer.from(hkdfSync("sha256", env().APP_SECRET, "leadmarket", "settings-encryption-v1", 32));
}

export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), data]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** Returns null when the value cannot be opened (e.g. APP_SECRET changed), never throws. */
export function decryptSecret(sealed: string): string | null {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || data === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    return null;
  }
}

/** Shows at most the last 4 characters. */
export function maskSecret(plain: string): string {
  const tail = plain.length > 8 ? plain.slice(-4) : "";
  return `${"•".repeat(8)}${tail}`;
}
