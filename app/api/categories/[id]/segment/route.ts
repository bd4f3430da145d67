import { route } from "@/lib/api/handler";
import { answerInFront } from "@/lib/api/front-routes";
import { uuidParams } from "@/lib/schemas/common";
import { segmentCounts } from "@/lib/segments/counts";
import { segmentQuery } from "@/lib/segments/schema";

// GET /api/categories/{id}/segment - a segment's sellable leads, per facet value, and the packages it fills
export const GET = route({ params: uuidParams, query: segmentQuery }, async ({ params, query }) =>
  segmentCounts(params.id, query.location, query.segment),
);

// Counted from memory in microseconds: the HTTP server calls it directly (lib/api/front-routes.ts).
answerInFront("segment", GET);
