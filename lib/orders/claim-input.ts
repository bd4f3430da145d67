import "server-only";
import { AppError, badRequest, FileTooLargeError } from "@/lib/errors";
import { assertWithinLimit } from "@/lib/limits/throttle";
import { consumeFile, fileBlocks, type FormBody, type UploadLimits } from "@/lib/limits/uploads";
import { runOffThread, tooComplexFile } from "@/lib/off-thread";
import { fieldErrors } from "@/lib/schemas/common";
import { replacementBody } from "@/lib/schemas/orders";

// Reads a replacement claim's addresses: JSON `{ emails: [...] }` or a CSV upload in the field
// `file` (any cell holding an address counts). Both are bounded on their bytes: room for 20,000
// long addresses in JSON, and for a whole delivered premium file as CSV. Read only once the key
// names a paid order (app/api/orders/[key]/replacement/route.ts).

const MAX_CLAIM_FILE_BYTES = 10 * 1024 * 1024;
const FILE_TOO_LARGE = `The file is too large: at most ${MAX_CLAIM_FILE_BYTES / 1024 / 1024} MB`;
const fileTooLarge = () => new FileTooLargeError(FILE_TOO_LARGE, { file: FILE_TOO_LARGE });
/** Claim uploads one address may send in an hour: a file is read whole, a JSON list is small. */
const CLAIM_UPLOADS = { max: 10, windowSeconds: 3600 };
/** And one order may receive in a day, from any addresses: one paid order buys that much reading. */
const CLAIM_UPLOADS_PER_ORDER = { max: 10, windowSeconds: 24 * 3600 };

export const CLAIM_LIMITS: UploadLimits = {
  pool: "claims",
  // Room for the multipart framing around the file.
  maxBytes: MAX_CLAIM_FILE_BYTES + 64 * 1024,
  maxFileBytes: MAX_CLAIM_FILE_BYTES,
  files: 1,
  jsonBytes: 2 * 1024 * 1024,
  deadlineSeconds: 5 * 60,
  tooLarge: fileTooLarge,
  fileTooLarge,
  unsupported: () =>
    new AppError(415, "Send the claim as application/json or as a multipart/form-data CSV upload"),
};

async function addressesInUpload(body: FormBody, orderId: string, clientIp: string): Promise<string[]> {
  await assertWithinLimit(
    { bucket: `claim-upload:${clientIp}`, ...CLAIM_UPLOADS },
    "Too many claim uploads from your address. Please try again later.",
  );
  await assertWithinLimit(
    { bucket: `claim-upload-order:${orderId}`, ...CLAIM_UPLOADS_PER_ORDER },
    "Too many claim uploads for this order today. Please try again later.",
  );
  const blocks = await consumeFile(body, "file", "Choose a CSV file", fileBlocks);
  // Read on a worker thread, within its deadline (lib/orders/claim-worker.ts).
  return runOffThread<Buffer[], string[]>("lib/orders/claim-worker.ts", blocks, () =>
    tooComplexFile("Upload only the addresses you report, one a line."),
  );
}

/** The reported addresses as sent (not yet normalised); 400 when there are none or too many. */
export async function readClaimAddresses(
  body: FormBody,
  orderId: string,
  clientIp: string,
): Promise<string[]> {
  if ("parts" in body) return addressesInUpload(body, orderId, clientIp);
  const parsed = replacementBody.safeParse(body.json);
  if (!parsed.success) throw badRequest("Invalid input", fieldErrors(parsed.error));
  return parsed.data.emails;
}
