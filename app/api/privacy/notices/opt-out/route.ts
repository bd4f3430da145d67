import { route } from "@/lib/api/handler";
import { optOutByNotice } from "@/lib/privacy/notices";
import { privacyConfirmBody } from "@/lib/schemas/privacy";

// POST /api/privacy/notices/opt-out - erase the person a privacy notice's link was mailed to (once)
export const POST = route({ body: privacyConfirmBody }, async ({ body }) => {
  const answer = await optOutByNotice(body.token);
  return Response.json(answer, { headers: { "cache-control": "no-store" } });
});
