import "server-only";
import { createHash } from "node:crypto";

// How a person's email is kept once it may not be kept in clear text (docs/product-rules.md,
// "Privacy requests"): normalised (trimmed, lower-cased, as imports store it), then hashed for
// matching, or masked for display.

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** SHA-256 (hex) of the normalised email: the suppression list's key. */
export function emailHash(email: string): string {
  return createHash("sha256").update(normalizeEmail(email), "utf8").digest("hex");
}

/** "jane.doe@example.com" -> "j***@e***.com": enough for the admin to tell requests apart. */
export function maskEmail(email: string): string {
  const normalized = normalizeEmail(email);
  const at = normalized.lastIndexOf("@");
  if (at < 1) return "***";
  const local = normalized.slice(0, at);
  const domain = normalized.slice(at + 1);
  const dot = domain.lastIndexOf(".");
  const suffix = dot > 0 ? domain.slice(dot) : "";
  return `${local[0]}***@${domain[0] ?? ""}***${suffix}`;
}
