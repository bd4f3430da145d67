import type { IncomingMessage, ServerResponse } from "node:http";

export const STANDING_REFUSAL_HEADER: string;

export function standingRefusals(): {
  answer(address: string, request: IncomingMessage, response: ServerResponse): boolean;
  watch(address: string, request: IncomingMessage, response: ServerResponse): void;
};
