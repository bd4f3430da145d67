import type { ServerResponse } from "node:http";

export const ADMISSION_MAX_WAIT_MS: number;
export function admission(
  maxWaitMs?: number,
): (address: string, response: ServerResponse, handle: () => void) => void;
