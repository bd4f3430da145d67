import "server-only";
import { getServers } from "node:dns";
import { isIP } from "node:net";

// No project imports: lib/env.ts uses this to validate DNS_SERVERS.

export type DnsServer = { host: string; port: number };

/** One `host:port` (`[v6]:port` for IPv6; the port defaults to 53), or an error message. */
function parseServer(text: string): DnsServer | string {
  let host = text;
  let portText: string | null = null;
  if (text.startsWith("[")) {
    const close = text.indexOf("]");
    const rest = text.slice(close + 1);
    if (close === -1 || (rest !== "" && !rest.startsWith(":"))) return `"${text}" is not [address]:port`;
    host = text.slice(1, close);
    if (rest !== "") portText = rest.slice(1);
  } else if (text.indexOf(":") !== -1 && text.indexOf(":") === text.lastIndexOf(":")) {
    // One colon: IPv4 and port. More: a bare IPv6 address, without a port.
    [host, portText] = text.split(":");
  }
  // Resolver addresses are IP literals: naming a resolver by a name would need a resolver.
  if (isIP(host) === 0) return `"${text}" is not an IP address`;
  if (portText === null) return { host, port: 53 };
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText) || port < 1 || port > 65535) return `"${text}" has no valid port`;
  return { host, port };
}

/** The servers of a `DNS_SERVERS` value (`host:port,host:port`); throws with the bad entry. */
export function parseDnsServers(text: string): DnsServer[] {
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length === 0) throw new Error("lists no server");
  return entries.map((entry) => {
    const server = parseServer(entry);
    if (typeof server === "string") throw new Error(server);
    return server;
  });
}

/** The system's resolvers, as node reads them from the system configuration (resolv.conf). */
export function systemDnsServers(): DnsServer[] {
  return getServers().map((entry) => {
    const server = parseServer(entry);
    if (typeof server === "string") throw new Error(`system resolver ${server}`);
    return server;
  });
}
