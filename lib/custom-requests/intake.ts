import "server-only";
import type { FormBody } from "@/lib/limits/uploads";
import { assertWithinRateLimit } from "@/lib/custom-requests/rate-limit";
import { discardStagedFiles } from "@/lib/custom-requests/staged-files";
import type { StoredRequest } from "@/lib/custom-requests/mail";
import { storeCustomRequest } from "@/lib/custom-requests/store";
import { readSubmission } from "@/lib/custom-requests/submission";

// Receiving a custom request. Files are written to storage as they arrive, so many uploads can be
// received at once (lib/limits/uploads.ts caps them per process and per address). The submissions
// an address has in flight count against its hourly limit, so it cannot open twenty at once.
const inFlight = new Map<string, number>();

/** Reads, checks and stores one submission (with its mails); "honeypot" when a bot filled the trap. */
export async function receiveCustomRequest(
  body: FormBody,
  clientIp: string,
  limit: number,
): Promise<StoredRequest | "honeypot"> {
  const others = inFlight.get(clientIp) ?? 0;
  await assertWithinRateLimit(clientIp, limit, others);
  inFlight.set(clientIp, others + 1);
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
    const left = (inFlight.get(clientIp) ?? 1) - 1;
    if (left > 0) inFlight.set(clientIp, left);
    else inFlight.delete(clientIp);
  }
}
