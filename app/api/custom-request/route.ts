import { randomUUID } from "node:crypto";
import { route } from "@/lib/api/handler";
import { env } from "@/lib/env";
import { clientAddress } from "@/lib/api/client-address";
import { assertWithinRateLimit } from "@/lib/requests/rate-limit";
import { storeCustomRequest } from "@/lib/requests/store";
import { readSubmission } from "@/lib/requests/submission";
import { pool } from "@/lib/db";

// POST /api/custom-request - store a visitor's custom lead request (JSON, or multipart with files)
export const POST = route({}, async ({ request }) => {
  const limit = env().CUSTOM_REQUEST_LIMIT;
  const clientIp = clientAddress(request.headers);
  // Cheap check before the upload is read; storeCustomRequest repeats it under a lock.
  await assertWithinRateLimit(pool(), clientIp, limit);
  const { input, files } = await readSubmission(request);
  if (input.website) {
    // Honeypot filled: answer like a success so the bot learns nothing, and store nothing.
    console.info(`[custom-request] dropped a submission from ${clientIp}: honeypot field filled`);
    return Response.json({ success: true, _id: randomUUID() }, { status: 201 });
  }
  const stored = await storeCustomRequest(input, files, clientIp, limit);
  return Response.json({ success: true, _id: stored.id }, { status: 201 });
});
