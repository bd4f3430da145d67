// The custom server's (scripts/server.mjs) first limit, before Next.js spends its few milliseconds
// of CPU on a request: how many requests one client address may have in progress at once. A
// browser keeps at most 6 connections to a host, so a visitor never meets it; a client that opens
// dozens at once no longer takes the event loop from everyone else. Plain JavaScript because the
// custom server loads it without a build.
import { clientBucket } from "./client-address.mjs";
import { InFlight } from "./in-flight.mjs";

export const IN_FLIGHT_PER_ADDRESS = 16;

/**
 * A check for each request as it arrives: its client address's bucket when the address has a place
 * (given back when the response closes, answered or cut), null when it has answered 429 itself.
 */
export function inFlightLimit(trustedHops) {
  const held = new InFlight();
  return (request, response) => {
    const address = clientBucket(
      request.socket.remoteAddress,
      request.headers["x-forwarded-for"],
      trustedHops,
    );
    if (!held.take(address, IN_FLIGHT_PER_ADDRESS)) {
      response.writeHead(429, {
        "content-type": "application/json",
        "retry-after": "1",
        "x-content-type-options": "nosniff",
      });
      response.end(
        JSON.stringify({
          success: false,
          message: "Too many requests at once from your address. Please wait for one to finish.",
        }),
      );
      return null;
    }
    response.once("close", () => held.give(address));
    return address;
  };
}
