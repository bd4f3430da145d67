import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { parseDnsServers, systemDnsServers } from "@/lib/verification/dns-servers";

describe("DNS_SERVERS", () => {
  it("reads host:port lists, IPv6 in brackets, port 53 by default", () => {
    expect(parseDnsServers("127.0.0.1:5353, [::1]:53,10.0.0.2")).toEqual([
      { host: "127.0.0.1", port: 5353 },
      { host: "::1", port: 53 },
      { host: "10.0.0.2", port: 53 },
    ]);
    expect(parseDnsServers("::1")).toEqual([{ host: "::1", port: 53 }]);
  });

  it.each([
    "",
    " , ",
    "resolver.example:53",
    "127.0.0.1:0",
    "127.0.0.1:70000",
    "127.0.0.1:x",
    "[::1",
    "[::1]x",
  ])("refuses %j", (value) => {
    expect(() => parseDnsServers(value)).toThrow();
  });

  it("is read once by lib/env.ts, which names a bad entry", () => {
    expect(parseEnv({ DNS_SERVERS: "127.0.0.1:5300" }).DNS_SERVERS).toEqual([
      { host: "127.0.0.1", port: 5300 },
    ]);
    expect(parseEnv({}).DNS_SERVERS).toBeUndefined();
    expect(() => parseEnv({ DNS_SERVERS: "127.0.0.1:5300,dns.example" })).toThrow(
      /DNS_SERVERS: "dns.example"/,
    );
  });

  it("reads the system's resolvers as servers", () => {
    for (const server of systemDnsServers()) expect(server.port).toBeGreaterThan(0);
  });
});
