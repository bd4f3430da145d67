import "server-only";
import { declaredLength, readJsonBody } from "@/lib/api/body";
import { isMultipart, openMultipart } from "@/lib/api/multipart";
import { AppError, badRequest, tooLarge } from "@/lib/errors";
import { checkFile, type CheckedFile } from "@/lib/custom-requests/files";
import { fieldErrors } from "@/lib/schemas/common";
import {
  customRequestSchema,
  hasAcceptedExtension,
  MAX_FILE_BYTES,
  MAX_FILES,
  type CustomRequest,
} from "@/lib/schemas/custom-request";

// Reads POST /api/custom-request bodies: JSON without files, or multipart streamed through busboy
// with hard limits, so an oversized upload is refused as soon as it shows, never buffered whole,
// and reading stops at the first refused file.

const MAX_FIELD_BYTES = 64 * 1024;
const MAX_FIELDS = 20;
// Room for every allowed file plus the text fields and multipart framing.
export const MAX_MULTIPART_BYTES = MAX_FILES * MAX_FILE_BYTES + 1024 * 1024;

const FILE_TOO_LARGE = `Each file must be ${MAX_FILE_BYTES / 1024 / 1024} MB or smaller`;
const WRONG_TYPE = "Only PDF, Word, CSV or Excel files are accepted";

export type Submission = { input: CustomRequest; files: CheckedFile[] };

/** Multipart text fields as the schema expects them: `platforms` (or `platforms[]`) as a list. */
function formFields(raw: Map<string, string[]>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, values] of raw) {
    if (name === "platforms" || name === "platforms[]") continue;
    fields[name] = values[0];
  }
  const platforms = [...(raw.get("platforms") ?? []), ...(raw.get("platforms[]") ?? [])];
  if (platforms.length === 1 && platforms[0].trim().startsWith("[")) {
    try {
      fields.platforms = JSON.parse(platforms[0]);
    } catch {
      fields.platforms = platforms;
    }
  } else if (platforms.length > 0) {
    fields.platforms = platforms.flatMap((value) => (value === "" ? [] : [value]));
  }
  return fields;
}

type Multipart = { fields: Record<string, unknown>; files: CheckedFile[]; fileErrors: string[] };

async function readMultipart(request: Request): Promise<Multipart> {
  const length = declaredLength(request);
  if (length !== null && length > MAX_MULTIPART_BYTES) {
    throw tooLarge(`The upload is too large: at most ${MAX_FILES} files of 10 MB each`);
  }
  const { parser, source } = openMultipart(request, {
    files: MAX_FILES,
    // busboy reports the limit once a file reaches it; one byte of slack lets exactly 10 MB in.
    fileSize: MAX_FILE_BYTES + 1,
    fields: MAX_FIELDS,
    fieldSize: MAX_FIELD_BYTES,
    parts: MAX_FILES + MAX_FIELDS,
  });
  return new Promise<Multipart>((resolve, reject) => {
    const raw = new Map<string, string[]>();
    const files: CheckedFile[] = [];
    const fileErrors: string[] = [];
    let settled = false;
    let received = 0;

    // Stops reading: the rest of the body is never pulled in.
    const stopReading = () => {
      source.unpipe(parser);
      source.destroy();
      // Without the rest of the body, busboy reports an unexpected end on the parser and on an
      // open file stream: already answered, so those are ignored.
      parser.on("error", () => undefined);
    };
    // At the first broken limit, the request fails.
    const fail = (error: AppError) => {
      if (settled) return;
      settled = true;
      stopReading();
      reject(error);
    };
    // At the first refused file, the request is answered with what was read so far: the fields
    // before it are still checked, so every problem known is reported, and no later file is read.
    const refuseFile = (problem: string) => {
      if (settled) return;
      settled = true;
      stopReading();
      fileErrors.push(problem);
      resolve({ fields: formFields(raw), files, fileErrors });
    };

    // The total is capped on the bytes themselves: a missing or understated Content-Length
    // (chunked uploads) must not let more through than the declared limit would.
    source.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_MULTIPART_BYTES) {
        fail(tooLarge(`The upload is too large: at most ${MAX_FILES} files of 10 MB each`));
      }
    });

    parser.on("field", (name, value, info) => {
      if (info.valueTruncated) return fail(tooLarge("A form field is too large", { [name]: "Too long" }));
      raw.set(name, [...(raw.get(name) ?? []), value]);
    });

    parser.on("file", (name, stream, info) => {
      stream.on("error", () => undefined);
      const fileName = info.filename ?? "";
      if (name !== "files") {
        stream.resume();
        return fail(badRequest("Invalid input", { [name]: 'Files must be sent in the "files" field' }));
      }
      // An empty file input still sends a nameless, empty part: nothing was chosen.
      if (!fileName) return void stream.resume();
      if (!hasAcceptedExtension(fileName)) {
        stream.resume();
        return refuseFile(`${fileName}: ${WRONG_TYPE}`);
      }
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => fail(tooLarge(FILE_TOO_LARGE, { files: `${fileName}: ${FILE_TOO_LARGE}` })));
      stream.on("end", () => {
        if (settled || stream.truncated) return;
        const checked = checkFile(fileName, Buffer.concat(chunks));
        chunks.length = 0;
        if ("reason" in checked) refuseFile(`${fileName}: ${checked.reason}`);
        else files.push(checked);
      });
    });

    parser.on("filesLimit", () =>
      fail(badRequest("Invalid input", { files: `At most ${MAX_FILES} files can be attached` })),
    );
    parser.on("fieldsLimit", () => fail(badRequest("Too many form fields")));
    parser.on("partsLimit", () => fail(badRequest("Too many form fields")));
    parser.on("error", () => fail(badRequest("Malformed multipart body")));
    source.on("error", () => fail(badRequest("The upload was interrupted")));
    parser.on("close", () => {
      if (settled) return;
      settled = true;
      resolve({ fields: formFields(raw), files, fileErrors });
    });
    source.pipe(parser);
  });
}

/** Reads and validates a submission; every problem found is reported at once as a 400. */
export async function readSubmission(request: Request): Promise<Submission> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();

  let fields: unknown;
  let files: CheckedFile[] = [];
  let fileErrors: string[] = [];
  if (isMultipart(request)) {
    ({ fields, files, fileErrors } = await readMultipart(request));
  } else if (mediaType === "application/json") {
    fields = await readJsonBody(request);
  } else {
    throw new AppError(415, "Send the request as application/json or multipart/form-data");
  }

  const parsed = customRequestSchema.safeParse(fields);
  const errors: Record<string, string> = parsed.success ? {} : fieldErrors(parsed.error);
  if (fileErrors.length) errors.files = fileErrors.join("; ");
  if (!parsed.success || fileErrors.length) throw badRequest("Invalid input", errors);
  return { input: parsed.data, files };
}
