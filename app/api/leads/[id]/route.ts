import { route } from "@/lib/api/handler";
import { notFound } from "@/lib/errors";
import { findLeadPreview } from "@/lib/leads/previews";
import { leadIdParams } from "@/lib/schemas/leads";

// GET /api/leads/{id} - one masked lead preview
export const GET = route({ params: leadIdParams }, async ({ params }) => {
  const lead = await findLeadPreview(params.id);
  if (!lead) throw notFound("Lead not found");
  return lead;
});
