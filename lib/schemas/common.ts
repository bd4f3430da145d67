import { z } from "zod";

export const uuidParams = z.object({ id: z.uuid("Invalid id") });

export const pagination = z.object({
  page: z.coerce.number().int().min(1).max(1000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
