import { route } from "@/lib/api/handler";
import { answerInFront } from "@/lib/api/front-routes";
import { segmentCountsQuery } from "@/lib/schemas/category-segment";
import { uuidParams } from "@/lib/schemas/common";
import { segmentCounts } from "@/lib/segments/counts";

// GET /api/categories/{id}/segment - a segment's sellable leads (in an email quality), per facet value, and the packages it fills
export const GET = route({ params: uuidParams, query: segmentCountsQuery }, async ({ params, query }) =>
  segmentCounts(params.id, query.location, query.segment, query.emailQuality),
);

// Counted from memory in microseconds: the HTTP server calls it directly (lib/api/front-routes.ts).
answerInFront("segment", GET);
