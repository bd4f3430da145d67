import { z } from "zod";
import { LOCATIONS } from "@/lib/location";
import { pagination } from "@/lib/schemas/common";

// The public lead previews' inputs (GET /api/leads/{id}, GET /api/leads/filter).

/** A lead's id: a positive bigint, written in digits. */
export const leadIdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,17}$/, "Invalid id")
    .transform((id) => BigInt(id)),
});

export const leadFilterQuery = pagination.extend({
  category: z.uuid("Invalid category id"),
  location: z.enum(LOCATIONS, "Choose USA or UK").optional(),
});
