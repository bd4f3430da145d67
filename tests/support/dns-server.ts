// A real DNS server on loopback (dns2's UDP server) for the mail-domain checks. Each name of the
// zone answers what its entry says; a name the zone lacks is NXDOMAIN with an SOA (the negative
// TTL). `rcode` makes a name fail (SERVFAIL, REFUSED) and `silent` makes it never answer, as
// `neverAnswer` does for the whole server (a dead resolver).
import type { AddressInfo } from "node:net";
import DNS from "dns2";

const { Packet } = DNS;

export type ZoneEntry = {
  mx?: { exchange: string; priority: number }[];
  a?: string[];
  aaaa?: string[];
  /** TTL of the records (default 3600). */
  ttl?: number;
  rcode?: "SERVFAIL" | "REFUSED";
  silent?: boolean;
  /** How long the answer waits. */
  delayMs?: number;
};

export type DnsServerOptions = {
  zone?: Record<string, ZoneEntry>;
  neverAnswer?: boolean;
  /** The SOA minimum of negative answers (default 300). */
  negativeTtl?: number;
};

export type LoopbackDnsServer = {
  /** `127.0.0.1:port`, as DNS_SERVERS takes it. */
  address: string;
  host: string;
  port: number;
  zone: Map<string, ZoneEntry>;
  /** Queries received so far, as `name TYPE`. */
  queries: string[];
  /** The most queries that were waiting for their (delayed) answer at once. */
  maxWaiting: () => number;
  close: () => Promise<void>;
};

const RCODES = { SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

export async function startDnsServer(options: DnsServerOptions = {}): Promise<LoopbackDnsServer> {
  const zone = new Map(
    Object.entries(options.zone ?? {}).map(([name, entry]) => [name.toLowerCase(), entry]),
  );
  const queries: string[] = [];
  const negativeTtl = options.negativeTtl ?? 300;
  let waiting = 0;
  let maxWaiting = 0;

  const server = DNS.createUDPServer((request, send) => {
    const [question] = request.questions;
    const name = question.name.toLowerCase();
    const typeName = Object.entries(Packet.TYPE).find(([, code]) => code === question.type)?.[0] ?? "?";
    queries.push(`${name} ${typeName}`);
    const entry = zone.get(name);
    if (options.neverAnswer || entry?.silent) return;

    const response = Packet.createResponseFromRequest(request);
    response.header.ra = 1;
    const ttl = entry?.ttl ?? 3600;
    const record = (fields: Partial<DNS.Packet.Resource>) =>
      response.answers.push({
        name: question.name,
        class: Packet.CLASS.IN,
        ttl,
        ...fields,
      } as DNS.Packet.Resource);
    if (!entry) {
      response.header.rcode = RCODES.NXDOMAIN;
    } else if (entry.rcode) {
      response.header.rcode = RCODES[entry.rcode];
    } else if (question.type === Packet.TYPE.MX) {
      for (const mx of entry.mx ?? []) record({ type: Packet.TYPE.MX, ...mx });
    } else if (question.type === Packet.TYPE.A) {
      for (const address of entry.a ?? []) record({ type: Packet.TYPE.A, address });
    } else if (question.type === Packet.TYPE.AAAA) {
      for (const address of entry.aaaa ?? []) record({ type: Packet.TYPE.AAAA, address });
    }
    // Negative answers (NXDOMAIN, or no record of the type) carry the zone's SOA (RFC 2308).
    if (!entry?.rcode && response.answers.length === 0) {
      response.authorities.push({
        name: name.split(".").slice(-2).join("."),
        type: Packet.TYPE.SOA,
        class: Packet.CLASS.IN,
        ttl: negativeTtl,
        primary: "ns.test",
        admin: "hostmaster.test",
        serial: 1,
        refresh: 3600,
        retry: 600,
        expiration: 86400,
        minimum: negativeTtl,
      } as DNS.Packet.Resource);
    }
    if (!entry?.delayMs) {
      void send(response);
      return;
    }
    waiting += 1;
    maxWaiting = Math.max(maxWaiting, waiting);
    setTimeout(() => {
      waiting -= 1;
      void send(response);
    }, entry.delayMs);
  });
  await server.listen(0, "127.0.0.1");
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    host: "127.0.0.1",
    port,
    zone,
    queries,
    maxWaiting: () => maxWaiting,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
