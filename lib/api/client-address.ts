import "server-only";

/**
 * The address a request came from, for per-address limits (sign-in, custom requests): the first X-Forwarded-For
 * entry, else X-Real-IP, else "unknown" (then every client shares one bucket).
 *
 * Deployments MUST sit behind a reverse proxy (nginx, a load balancer, a PaaS router) that sets
 * these headers and overwrites whatever the client sent; exposed directly, a client can put any
 * value in them and escape the limit. Next.js gives route handlers no socket address to fall back on.
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  if (forwarded) return forwarded.slice(0, 100);
  const real = headers.get("x-real-ip")?.trim();
  if (real) return real.slice(0, 100);
  return "unknown";
}
