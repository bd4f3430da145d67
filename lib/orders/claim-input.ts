import "server-only";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { declaredLength, readBoundedText } from "@/lib/api/body";
import { fieldErrors } from "@/lib/api/errors";
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
export const MAX_CLAIM_FILE_BYTES = 10 * 1024 * 1024;
const FILE_TOO_LARGE = `The file is too large: at most ${MAX_CLAIM_FILE_BYTES / 1024 / 1024} MB`;

function readCsvUpload(request: Request, contentType: string): Promise<string> {
  if ((declaredLength(request) ?? 0) > MAX_CLAIM_FILE_BYTES + 64 * 1024) {
    return Promise.reject(tooLarge(FILE_TOO_LARGE, { file: FILE_TOO_LARGE }));
  }
  if (!request.body) return Promise.reject(badRequest("No file was uploaded", { file: "Choose a CSV file" }));
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: { files: 1, fileSize: MAX_CLAIM_FILE_BYTES, fields: 5, fieldSize: 1024, parts: 6 },
    });
  } catch {
    return Promise.reject(badRequest("Malformed multipart body"));
  }
  const source = Readable.fromWeb(request.body as unknown as NodeReadableStream<Uint8Array>);
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    let text: string | null = null;
    const fail = (error: AppError) => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      source.destroy();
      parser.on("error", () => undefined);
      reject(error);
    };
    parser.on("file", (name, stream) => {
      stream.on("error", () => undefined);
      if (name !== "file") {
        stream.resume();
        return fail(badRequest("Invalid input", { [name]: 'Upload the CSV file in the "file" field' }));
      }
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => fail(tooLarge(FILE_TOO_LARGE, { file: FILE_TOO_LARGE })));
      stream.on("end", () => {
        if (!stream.truncated) text = Buffer.concat(chunks).toString("utf8");
      });
    });
    parser.on("filesLimit", () => fail(badRequest("Upload one file", { file: "Upload one file" })));
    parser.on("partsLimit", () => fail(badRequest("Too many form fields")));
    parser.on("error", () => fail(badRequest("Malformed multipart body")));
    source.on("error", () => fail(badRequest("The upload was interrupted")));
    parser.on("close", () => {
      if (settled) return;
      settled = true;
      if (text === null) reject(badRequest("No file was uploaded", { file: "Choose a CSV file" }));
      else resolve(text);
    });
    source.pipe(parser);
  });
}

/** The reported addresses as sent (not yet normalised); 400 when there are none or too many. */
export async function readClaimAddresses(request: Request): Promise<string[]> {
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0].trim().toLowerCase();
  if (mediaType === "multipart/form-data") {
    const addresses = addressesInText(await readCsvUpload(request, contentType));
    if (addresses.length === 0) {
      throw badRequest("The file holds no email addresses", { file: "No email addresses found" });
    }
    if (new Set(addresses.map((address) => address.toLowerCase())).size > MAX_REPORTED_ADDRESSES) {
      throw badRequest(TOO_MANY_ADDRESSES, { file: TOO_MANY_ADDRESSES });
    }
    return addresses;
  }
  if (mediaType !== "application/json") {
    throw new AppError(415, "Send the claim as application/json or as a multipart/form-data CSV upload");
  }
  const text = await readBoundedText(request, MAX_JSON_BYTES);
  let json: unknown;
  try {
    json = text.trim() ? JSON.parse(text) : {};
  } catch {
    throw badRequest("Request body must be valid JSON");
  }
  const parsed = replacementBody.safeParse(json);
  if (!parsed.success) throw badRequest("Invalid input", fieldErrors(parsed.error));
  return parsed.data.emails;
}
