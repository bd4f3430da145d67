import "server-only";
import type { FormBody } from "@/lib/limits/uploads";
import { assertWithinRateLimit } from "@/lib/custom-requests/rate-limit";
import { discardStagedFiles } from "@/lib/custom-requests/staged-files";
import type { StoredRequest } from "@/lib/custom-requests/mail";
import { storeCustomRequest } from "@/lib/custom-requests/store";
import { readSubmission } from "@/lib/custom-requests/submission";
import { InFlight } from "@/lib/http/in-flight.mjs";

// Receiving a custom request. Files are written to storage as they arrive, so many uploads can be
// received at once (lib/limits/uploads.ts caps them per process and per address). The submissions
// an address has in flight count against its hourly limit, so it cannot open twenty at once.
const inFlight = new InFlight();

/** Reads, checks and stores one submission (with its mails); "honeypot" when a bot filled the trap. */
export async function receiveCustomRequest(
  body: FormBody,
  clientIp: string,
  limit: number,
): Promise<StoredRequest | "honeypot"> {
  await assertWithinRateLimit(clientIp, limit, inFlight.count(clientIp));
  inFlight.take(clientIp);
  try {
    const { input, files } = await readSubmission(body);
    // Honeypot filled: nothing is stored, and the caller answers like a success.
    if (input.website) {
      await discardStagedFiles(files.map((file) => file.uploadId));
      return "honeypot";
    }
    try {
      return await storeCustomRequest(input, files, clientIp, limit);
    } catch (error) {
      await discardStagedFiles(files.map((file) => file.uploadId));
      throw error;
    }
  } finally {
    inFlight.give(clientIp);
  }
}
