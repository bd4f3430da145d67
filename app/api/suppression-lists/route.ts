import { route } from "@/lib/api/handler";
import { createSuppressionList, LIST_LIMITS } from "@/lib/suppression/lists";

export const dynamic = "force-dynamic";

// POST /api/suppression-lists - upload an "exclude contacts I already have" list (multipart `file`)
export const POST = route({ upload: true, standingLimits: true }, async ({ caller, upload }) => {
  const answer = await createSuppressionList(await upload.read(LIST_LIMITS), caller);
  return Response.json(answer, { status: 201, headers: { "cache-control": "no-store" } });
});
