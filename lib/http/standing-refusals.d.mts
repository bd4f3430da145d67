import type { IncomingMessage, ServerResponse } from "node:http";

export const STANDING_REFUSAL_HEADER: string;
export const STANDING_REFUSAL_DELAY_MS: number;

export function standingRefusals(): {
  answer(address: string, request: IncomingMessage, response: ServerResponse): boolean;
  watch(address: string, request: IncomingMessage, response: ServerResponse): void;
};
