import "server-only";

/**
 * A cookie a domain asks the answer to set: its value and the attributes it is kept under. The
 * handler writes it (lib/api/cookies.ts); domain code never builds a header.
 */
export type Cookie = {
  name: string;
  value: string;
  path: string;
  maxAgeSeconds: number;
  sameSite: "Lax" | "Strict";
  secure: boolean;
};
