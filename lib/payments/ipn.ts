import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";

// NOWPayments signs callbacks with hex HMAC-SHA512 over JSON.stringify of the parsed body with
// object keys sorted at every depth (arrays keep their order): what its official SDK does. Its
// public Postman docs instead show JSON.stringify(body, Object.keys(body).sort()), which sorts the
// top level and, being a replacer list, keeps only nested keys that are also top-level keys. Both
// are accepted, each only with the secret; hashing the raw body would fail either way.
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

function hmac(text: string, secret: string): Buffer {
  return createHmac("sha512", secret.trim()).update(text).digest();
}

/** The Postman docs' serialisation: top-level keys sorted, used as the replacer's allow-list. */
function topLevelSorted(body: unknown): string | null {
  if (!body || typeof body !== "object" || Array.isArray(body)) return null;
  return JSON.stringify(body, Object.keys(body).sort());
}

// A callback is a flat payment record of a few dozen values. A body nested deeper than MAX_DEPTH,
// or holding more than MAX_VALUES values, is no payment: sorting (or serialising) it recursively
// would exhaust the stack, or cost milliseconds of main-thread CPU per request before any check.
const MAX_DEPTH = 32;
const MAX_VALUES = 512;

/** Whether `body` is within MAX_DEPTH levels and MAX_VALUES values, walked without recursion. */
function shapedLikePayment(body: unknown): boolean {
  const stack: [value: unknown, depth: number][] = [[body, 0]];
  let values = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++values > MAX_VALUES) return false;
    if (!value || typeof value !== "object") continue;
    if (depth >= MAX_DEPTH) return false;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return true;
}

/** True only for a well-formed hex signature of this body, in either serialisation, with this secret. */
export function verifyIpnSignature(body: unknown, signature: string | null, secret: string): boolean {
  if (!signature || !/^[0-9a-f]{128}$/i.test(signature)) return false;
  if (!shapedLikePayment(body)) return false;
  const given = Buffer.from(signature, "hex");
  const candidates = [JSON.stringify(sortKeysDeep(body)), topLevelSorted(body)];
  // Both are computed and compared every time, so the answer takes as long whichever matches.
  const matches = candidates.map((text) => text !== null && timingSafeEqual(hmac(text, secret), given));
  return matches.some(Boolean);
}
