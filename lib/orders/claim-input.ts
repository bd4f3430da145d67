import "server-only";
import type { Readable } from "node:stream";
import { declaredLength, readJsonBody } from "@/lib/api/body";
import { fieldErrors } from "@/lib/schemas/common";
import { consumeUploadedFile, isMultipart } from "@/lib/api/multipart";
import { AppError, badRequest, tooLarge } from "@/lib/errors";
import {
  addressesInText,
  MAX_REPORTED_ADDRESSES,
  replacementBody,
  TOO_MANY_ADDRESSES,
} from "@/lib/schemas/orders";

// Reads a replacement claim's addresses: JSON `{ emails: [...] }` or a CSV upload in the field
// `file` (any cell holding an address counts). Both are bounded on their bytes: room for 20,000
// long addresses in JSON, and for a whole delivered premium file as CSV.

const MAX_JSON_BYTES = 2 * 1024 * 1024;
const MAX_CLAIM_FILE_BYTES = 10 * 1024 * 1024;
const FILE_TOO_LARGE = `The file is too large: at most ${MAX_CLAIM_FILE_BYTES / 1024 / 1024} MB`;
const fileTooLarge = () => tooLarge(FILE_TOO_LARGE, { file: FILE_TOO_LARGE });

async function readText(file: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function addressesInUpload(request: Request): Promise<string[]> {
  // Room for the multipart framing around the file.
  if ((declaredLength(request) ?? 0) > MAX_CLAIM_FILE_BYTES + 64 * 1024) throw fileTooLarge();
  const text = await consumeUploadedFile(
    request,
    { field: "file", maxBytes: MAX_CLAIM_FILE_BYTES, missing: "Choose a CSV file", tooLarge: fileTooLarge },
    readText,
  );
  const addresses = addressesInText(text);
  if (addresses.length === 0) {
    throw badRequest("The file holds no email addresses", { file: "No email addresses found" });
  }
  if (new Set(addresses.map((address) => address.toLowerCase())).size > MAX_REPORTED_ADDRESSES) {
    throw badRequest(TOO_MANY_ADDRESSES, { file: TOO_MANY_ADDRESSES });
  }
  return addresses;
}

/** The reported addresses as sent (not yet normalised); 400 when there are none or too many. */
export async function readClaimAddresses(request: Request): Promise<string[]> {
  if (isMultipart(request)) return addressesInUpload(request);
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw new AppError(415, "Send the claim as application/json or as a multipart/form-data CSV upload");
  }
  const parsed = replacementBody.safeParse(await readJsonBody(request, MAX_JSON_BYTES));
  if (!parsed.success) throw badRequest("Invalid input", fieldErrors(parsed.error));
  return parsed.data.emails;
}
