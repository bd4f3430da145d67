import "server-only";
import { env } from "@/lib/env";
import { clientBucket } from "@/lib/http/client-address.mjs";

/**
 * The header our server (scripts/server.mjs) sets on every request to the TCP peer's address,
 * replacing whatever a client sent under that name. Next.js itself only fills X-Forwarded-For
 * with the peer when the client sent none, so that header alone cannot tell who connected.
 */
export const SOCKET_ADDRESS_HEADER = "x-leadmarket-socket-address";

/** The client address behind a request with these headers (lib/http/client-address.mjs). */
export function addressFrom(headers: Headers, trustedHops: number): string {
  return clientBucket(headers.get(SOCKET_ADDRESS_HEADER), headers.get("x-forwarded-for"), trustedHops);
}

/** The calling client's address for per-address limits (sign-in, custom requests, uploads). */
export function clientAddress(headers: Headers): string {
  return addressFrom(headers, env().TRUST_PROXY_HOPS);
}
