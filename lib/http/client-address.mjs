// How a request's client address is found and grouped for per-address limits: by the route
// handlers (lib/api/client-address.ts) and by the custom server's own in-flight limit
// (scripts/server.mjs); plain JavaScript because the custom server loads it without a build.
import { isIPv4, isIPv6 } from "node:net";

/** IPv6 clients get a /64 each (one subscriber's usual allocation), so limits group them by it. */
export function limitBucket(address) {
  const plain = address
    .trim()
    .replace(/^\[|\]$/g, "")
    // The zone ("fe80::1%eth0") left out.
    .split("%", 1)[0];
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(plain)) return plain;
  if (!isIPv6(plain)) return plain.slice(0, 100);
  const [head, tail = ""] = plain.toLowerCase().split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = plain.includes("::") ? (tail ? tail.split(":") : []) : [];
  // An embedded IPv4 tail takes two groups' room; only the first four groups matter here anyway.
  const tailSize = tailGroups.reduce((sum, group) => sum + (group.includes(".") ? 2 : 1), 0);
  const groups = [...headGroups, ...Array(Math.max(0, 8 - headGroups.length - tailSize)).fill("0")];
  const prefix = [...groups, ...tailGroups]
    .slice(0, 4)
    .map((group) => (group.includes(".") ? "0" : Number.parseInt(group, 16).toString(16)));
  return `${prefix.join(":")}::/64`;
}

/**
 * The client address behind a request, as the bucket used by per-address limits.
 *
 * With `trustedHops` 0 the address is the TCP peer's: no header a client can write is believed.
 * With N trusted proxies in front, each appending the address it saw to X-Forwarded-For, the N-th
 * entry from the right is the one the outermost proxy saw; entries left of it are the client's to
 * choose. A shorter list (a request that skipped a proxy) falls back to its leftmost entry, then
 * to the peer. "unknown" when nothing is known (e.g. `next dev`): every such client shares a bucket.
 */
export function clientBucket(socketAddress, forwardedFor, trustedHops) {
  const socket = socketAddress?.trim();
  if (trustedHops > 0) {
    const forwarded = (forwardedFor ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    const chosen = forwarded.at(-trustedHops) ?? forwarded[0];
    if (chosen) return limitBucket(chosen);
  }
  return socket ? limitBucket(socket) : "unknown";
}
