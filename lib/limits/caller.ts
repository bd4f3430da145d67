import "server-only";

/** Who calls, as the per-address limits count them: the client's address (lib/api/client-address.ts). */
export type Caller = { clientIp: string };
