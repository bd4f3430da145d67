import "server-only";
import { randomInt } from "node:crypto";
import { createSocket } from "node:dgram";
import { isIPv6 } from "node:net";
import dnsPacket, { type Answer } from "dns-packet";
import type { DnsServer } from "./dns-servers";

// One DNS query over UDP to one server. Each query has a socket of its own (a random source port
// and id, as a resolver expects of its clients) and takes only an answer from that server, with
// that id, to that question. dns-packet reads and writes the messages.

export type DnsReply = {
  /** The response code: 0 NOERROR, 3 NXDOMAIN, ... */
  rcode: number;
  /** The answer was truncated (TC): its records may be incomplete. */
  truncated: boolean;
  answers: Answer[];
  authorities: Answer[];
};

/** The server's reply; rejects on a socket error or when none came within `timeoutMs`. */
export function queryServer(
  server: DnsServer,
  name: string,
  type: "MX" | "A" | "AAAA",
  timeoutMs: number,
): Promise<DnsReply> {
  return new Promise((resolve, reject) => {
    const id = randomInt(0x10000);
    const socket = createSocket(isIPv6(server.host) ? "udp6" : "udp4");
    let settled = false;
    const settle = (error: Error | null, reply?: DnsReply) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else resolve(reply!);
    };
    const timer = setTimeout(() => settle(new Error(`DNS query timed out after ${timeoutMs} ms`)), timeoutMs);
    socket.on("error", (error) => settle(error));
    socket.on("message", (message, from) => {
      if (from.port !== server.port || from.address !== server.host) return;
      let packet: dnsPacket.DecodedPacket;
      try {
        packet = dnsPacket.decode(message);
      } catch {
        return;
      }
      const question = packet.questions?.[0];
      if (packet.id !== id || question?.type !== type || question.name.toLowerCase() !== name) return;
      settle(null, {
        rcode: (packet.flags ?? 0) & 0xf,
        truncated: packet.flag_tc,
        answers: packet.answers ?? [],
        authorities: packet.authorities ?? [],
      });
    });
    const query = dnsPacket.encode({
      type: "query",
      id,
      flags: dnsPacket.RECURSION_DESIRED,
      questions: [{ type, name }],
    });
    socket.send(query, server.port, server.host, (error) => {
      if (error) settle(error);
    });
  });
}
