import { randomUUID } from "node:crypto";
import { route } from "@/lib/api/handler";
import { env } from "@/lib/env";
import { receiveCustomRequest } from "@/lib/custom-requests/intake";
import { SUBMISSION_LIMITS } from "@/lib/custom-requests/submission";

// POST /api/custom-request - store a visitor's custom lead request (JSON, or multipart with files)
export const POST = route({ upload: true }, async ({ caller, upload }) => {
  const { clientIp } = caller;
  const body = await upload.read(SUBMISSION_LIMITS);
  const stored = await receiveCustomRequest(body, clientIp, env().CUSTOM_REQUEST_LIMIT);
  if (stored === "honeypot") {
    // Answer like a success so the bot learns nothing.
    console.info(`[custom-request] dropped a submission from ${clientIp}: honeypot field filled`);
    return Response.json({ success: true, _id: randomUUID() }, { status: 201 });
  }
  return Response.json({ success: true, _id: stored.id }, { status: 201 });
});
