import { describe, expect, it } from "vitest";
import { addressFrom, SOCKET_ADDRESS_HEADER } from "@/lib/api/client-address";
import { limitBucket } from "@/lib/http/client-address.mjs";

const headers = (values: Record<string, string>) => new Headers(values);

describe("client address", () => {
  it("with no trusted proxy, is the socket's address whatever the client writes in headers", () => {
    const spoofed = headers({
      [SOCKET_ADDRESS_HEADER]: "192.0.2.7",
      "x-forwarded-for": "203.0.113.1",
      "x-real-ip": "203.0.113.2",
    });
    expect(addressFrom(spoofed, 0)).toBe("192.0.2.7");
    expect(addressFrom(headers({ "x-forwarded-for": "203.0.113.1" }), 0)).toBe("unknown");
  });

  it("with N trusted proxies, is the N-th X-Forwarded-For entry from the right", () => {
    const forwarded = headers({
      [SOCKET_ADDRESS_HEADER]: "10.0.0.2",
      "x-forwarded-for": "198.51.100.9, 203.0.113.5, 10.0.0.1",
    });
    expect(addressFrom(forwarded, 1)).toBe("10.0.0.1");
    expect(addressFrom(forwarded, 2)).toBe("203.0.113.5");
    // Fewer entries than proxies: the leftmost one, written by the first proxy reached.
    expect(addressFrom(headers({ "x-forwarded-for": "203.0.113.5" }), 3)).toBe("203.0.113.5");
    expect(addressFrom(headers({ [SOCKET_ADDRESS_HEADER]: "10.0.0.2" }), 1)).toBe("10.0.0.2");
  });

  it("groups IPv6 addresses by /64 and unwraps IPv4-mapped ones", () => {
    expect(limitBucket("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(limitBucket("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(limitBucket("2001:0db8:0001:0002:ffff::9")).toBe("2001:db8:1:2::/64");
    expect(limitBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(limitBucket("::1")).toBe("0:0:0:0::/64");
    expect(limitBucket("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(limitBucket("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(limitBucket("192.0.2.1")).toBe("192.0.2.1");
    const socket = (address: string) => addressFrom(headers({ [SOCKET_ADDRESS_HEADER]: address }), 0);
    expect(socket("2001:db8:1:2::a")).toBe(socket("2001:db8:1:2:ffff::b"));
    expect(socket("2001:db8:1:3::a")).not.toBe(socket("2001:db8:1:2::a"));
  });
});
