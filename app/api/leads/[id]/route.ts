import { z } from "zod";
import { route } from "@/lib/api/handler";
import { notFound } from "@/lib/errors";
import { findLeadPreview } from "@/lib/leads/previews";

const params = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,17}$/, "Invalid id")
    .transform((id) => BigInt(id)),
});

// GET /api/leads/{id} - one masked lead preview
export const GET = route({ params }, async ({ params }) => {
  const lead = await findLeadPreview(params.id);
  if (!lead) throw notFound("Lead not found");
  return lead;
});
