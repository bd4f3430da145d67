import { route } from "@/lib/api/handler";
import { listAvailability } from "@/lib/suppression/counts";
import { listAvailabilityQuery, listIdParams } from "@/lib/schemas/suppression";

export const dynamic = "force-dynamic";

// GET /api/suppression-lists/{id}/availability?categoryId=&location=&region=... - what the list removes
export const GET = route(
  { params: listIdParams, query: listAvailabilityQuery, standingLimits: true },
  async ({ params, query, caller }) => {
    const answer = await listAvailability(params.id, caller, query);
    return Response.json(answer, { headers: { "cache-control": "no-store" } });
  },
);
