import type { IncomingMessage, ServerResponse } from "node:http";

export const IN_FLIGHT_PER_ADDRESS: number;
export function inFlightLimit(
  trustedHops: number,
): (request: IncomingMessage, response: ServerResponse) => string | null;
