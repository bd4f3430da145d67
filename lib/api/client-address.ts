import "server-only";

/**
 * The address a request came from, for per-address limits (sign-in, custom requests): the last
 * X-Forwarded-For entry, else X-Real-IP, else "unknown" (then every client shares one bucket).
 *
 * The last entry is the one written by the nearest hop: a reverse proxy appends the address it
 * saw to whatever the client sent, and Next.js itself fills the header with the socket address
 * when it is absent. Earlier entries are the client's to choose, so trusting the first one would
 * let anyone escape a limit by sending a new value each time. Behind several proxies the last
 * entry is a proxy's, so clients share a bucket: stricter, never looser.
 *
 * Exposed without a proxy, a client that sends its own X-Forwarded-For still chooses the value:
 * deployments should sit behind a reverse proxy (nginx, a load balancer, a PaaS router).
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
  if (forwarded) return forwarded.slice(0, 100);
  const real = headers.get("x-real-ip")?.trim();
  if (real) return real.slice(0, 100);
  return "unknown";
}
