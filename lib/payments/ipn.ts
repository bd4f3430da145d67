import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";

// NOWPayments signs callbacks with hex HMAC-SHA512 over JSON.stringify of the parsed body with
// object keys sorted at every depth (arrays keep their order). Hashing the raw body or sorting only
// the top level fails whenever a nested object such as `fee` is present.
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === "object") {
    const source = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(source)
        .sort()
        .map((key) => [key, sortKeysDeep(source[key])]),
    );
  }
  return value;
}

export function signIpnBody(body: unknown, secret: string): string {
  return createHmac("sha512", secret.trim())
    .update(JSON.stringify(sortKeysDeep(body)))
    .digest("hex");
}

/** True only for a well-formed hex signature of this body with this secret. */
export function verifyIpnSignature(body: unknown, signature: string | null, secret: string): boolean {
  if (!signature || !/^[0-9a-f]+$/i.test(signature)) return false;
  const expected = Buffer.from(signIpnBody(body, secret), "hex");
  const given = Buffer.from(signature, "hex");
  return expected.length === given.length && timingSafeEqual(expected, given);
}
