import { z } from "zod";

/** PostgreSQL text cannot hold NUL: refusing it here makes such input a 400, not a database error. */
export const hasNoNul = (value: string) => !value.includes("\u0000");
export const NUL_MESSAGE = "Must not contain NUL characters";

export const uuidParams = z.object({ id: z.uuid("Invalid id") });

export const pagination = z.object({
  page: z.coerce.number().int().min(1).max(1000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
