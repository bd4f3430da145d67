import type { ServerResponse } from "node:http";

export function admission(
  maxWaitMs?: number,
): (address: string, response: ServerResponse, handle: () => void) => void;
