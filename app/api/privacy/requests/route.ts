import { route } from "@/lib/api/handler";
import { requestPrivacyAction } from "@/lib/privacy/requests";
import { privacyRequestBody } from "@/lib/schemas/privacy";

// POST /api/privacy/requests - ask for access to or erasure of one's data (mails a link; always 202)
export const POST = route({ body: privacyRequestBody, standingLimits: true }, async ({ body, caller }) => {
  await requestPrivacyAction(body.email, body.kind, caller);
  return Response.json({ success: true }, { status: 202 });
});
