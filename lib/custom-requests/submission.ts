import "server-only";
import { AppError, badRequest, FileTooLargeError } from "@/lib/errors";
import { fieldErrors } from "@/lib/schemas/common";
import type { FormBody, FormPart, UploadLimits } from "@/lib/limits/uploads";
import { discardStagedFiles, stageFile, type CheckedFile } from "@/lib/custom-requests/staged-files";
import {
  customRequestSchema,
  hasAcceptedExtension,
  MAX_FILE_BYTES,
  MAX_FILES,
  type CustomRequest,
} from "@/lib/schemas/custom-request";

// Reads POST /api/custom-request bodies: JSON without files, or multipart parts as they arrive,
// each file written to storage a chunk at a time (lib/custom-requests/staged-files.ts). Reading
// stops at the first refused file or broken limit.

const FILE_TOO_LARGE = `Each file must be ${MAX_FILE_BYTES / 1024 / 1024} MB or smaller`;
const UPLOAD_TOO_LARGE = `The upload is too large: at most ${MAX_FILES} files of 10 MB each`;
const WRONG_TYPE = "Only PDF, Word, CSV or Excel files are accepted";

/** The bounds of a submission's body (lib/api/upload.ts applies them). */
export const SUBMISSION_LIMITS: UploadLimits = {
  pool: "customRequests",
  // Room for every allowed file plus the text fields and multipart framing.
  maxBytes: MAX_FILES * MAX_FILE_BYTES + 1024 * 1024,
  maxFileBytes: MAX_FILE_BYTES,
  files: MAX_FILES,
  fields: 20,
  fieldBytes: 64 * 1024,
  deadlineSeconds: 10 * 60,
  tooLarge: () => new FileTooLargeError(UPLOAD_TOO_LARGE),
  fileTooLarge: (fileName) =>
    new FileTooLargeError(FILE_TOO_LARGE, { files: `${fileName}: ${FILE_TOO_LARGE}` }),
  unsupported: () => new AppError(415, "Send the request as application/json or multipart/form-data"),
};

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

/**
 * Reads the parts; at the first refused file the rest is left unread, and the fields before it are
 * still checked, so every problem known is reported at once.
 */
async function readParts(parts: AsyncIterable<FormPart>): Promise<Multipart> {
  const raw = new Map<string, string[]>();
  const files: CheckedFile[] = [];
  const fileErrors: string[] = [];
  try {
    for await (const part of parts) {
      if (!("file" in part)) {
        raw.set(part.name, [...(raw.get(part.name) ?? []), part.value]);
        continue;
      }
      const { name, fileName } = part;
      if (name !== "files") {
        throw badRequest("Invalid input", { [name]: 'Files must be sent in the "files" field' });
      }
      if (!fileName) {
        // An empty file input still sends a nameless, empty part: nothing was chosen.
        const [first] = (await part.file.toArray()) as Buffer[];
        if (!first?.length) continue;
        fileErrors.push("A file was sent without a name");
        break;
      }
      if (!hasAcceptedExtension(fileName)) {
        fileErrors.push(`${fileName}: ${WRONG_TYPE}`);
        break;
      }
      const checked = await stageFile(fileName, part.file);
      if ("reason" in checked) {
        fileErrors.push(`${fileName}: ${checked.reason}`);
        break;
      }
      files.push(checked);
    }
  } catch (error) {
    await discardStagedFiles(files.map((file) => file.uploadId));
    throw error;
  }
  return { fields: formFields(raw), files, fileErrors };
}

/** Reads and validates a submission; every problem found is reported at once as a 400. */
export async function readSubmission(body: FormBody): Promise<Submission> {
  let fields: unknown;
  let files: CheckedFile[] = [];
  let fileErrors: string[] = [];
  if ("parts" in body) ({ fields, files, fileErrors } = await readParts(body.parts));
  else fields = body.json;

  const parsed = customRequestSchema.safeParse(fields);
  const errors: Record<string, string> = parsed.success ? {} : fieldErrors(parsed.error);
  if (fileErrors.length) errors.files = fileErrors.join("; ");
  if (!parsed.success || fileErrors.length) {
    await discardStagedFiles(files.map((file) => file.uploadId));
    throw badRequest("Invalid input", errors);
  }
  return { input: parsed.data, files };
}
