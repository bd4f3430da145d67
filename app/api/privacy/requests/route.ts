import { clientAddress } from "@/lib/api/client-address";
import { route } from "@/lib/api/handler";
import { requestPrivacyAction } from "@/lib/privacy/requests";
import { privacyRequestBody } from "@/lib/schemas/privacy";

// POST /api/privacy/requests - ask for access to or erasure of one's data (mails a link; always 202)
export const POST = route({ body: privacyRequestBody }, async ({ body, request }) => {
  await requestPrivacyAction(body.email, body.kind, { clientIp: clientAddress(request.headers) });
  return Response.json({ success: true }, { status: 202 });
});
