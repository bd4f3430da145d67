import "server-only";
import { BusyError, Limiter } from "@/lib/concurrency";
import { assertWithinRateLimit } from "@/lib/custom-requests/rate-limit";
import { storeCustomRequest, type StoredRequest } from "@/lib/custom-requests/store";
import { isMultipart } from "@/lib/api/multipart";
import { readSubmission } from "@/lib/custom-requests/submission";

// Receiving a custom request. An upload is held in memory from its first byte until it is stored
// (up to 5 x 10 MB, plus the copies made on the way to PostgreSQL), so this process receives one
// at a time and answers 503 with Retry-After to others meanwhile, instead of buffering whatever
// arrives (custom requests are rare; a refused one is retried by the form). The uploads an
// address has in flight count against its hourly limit, so it cannot open twenty at once.
export const MAX_CONCURRENT_UPLOADS = 1;

const uploads = new Limiter(
  MAX_CONCURRENT_UPLOADS,
  0,
  () => new BusyError("The server is receiving other uploads. Please try again in a moment.", 10),
);
const inFlight = new Map<string, number>();

async function receive(
  request: Request,
  clientIp: string,
  limit: number,
): Promise<StoredRequest | "honeypot"> {
  const others = inFlight.get(clientIp) ?? 0;
  await assertWithinRateLimit(clientIp, limit, others);
  inFlight.set(clientIp, others + 1);
  try {
    const { input, files } = await readSubmission(request);
    // Honeypot filled: nothing is stored, and the caller answers like a success.
    if (input.website) return "honeypot";
    return await storeCustomRequest(input, files, clientIp, limit);
  } finally {
    const left = (inFlight.get(clientIp) ?? 1) - 1;
    if (left > 0) inFlight.set(clientIp, left);
    else inFlight.delete(clientIp);
  }
}

/** Reads, checks and stores one submission (with its mails); "honeypot" when a bot filled the trap. */
export function receiveCustomRequest(
  request: Request,
  clientIp: string,
  limit: number,
): Promise<StoredRequest | "honeypot"> {
  const work = () => receive(request, clientIp, limit);
  return isMultipart(request) ? uploads.run(work) : work();
}
