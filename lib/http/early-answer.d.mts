import type { IncomingMessage, ServerResponse } from "node:http";

export const LINGER_MAX_BYTES: number;
export const LINGER_MAX_MS: number;
export const LINGER_BYTES_PER_SECOND: number;
export function closeAfterEarlyAnswer(request: IncomingMessage, response: ServerResponse): void;
