import { route } from "@/lib/api/handler";
import { confirmPrivacyRequest } from "@/lib/privacy/requests";
import { privacyConfirmBody } from "@/lib/schemas/privacy";

// POST /api/privacy/requests/confirm - run the request a mailed confirmation link names (once)
export const POST = route({ body: privacyConfirmBody }, async ({ body }) => {
  const answer = await confirmPrivacyRequest(body.token);
  return Response.json(answer, { headers: { "cache-control": "no-store" } });
});
