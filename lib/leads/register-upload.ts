import "server-only";
import { pool } from "@/lib/db";
import { badRequest, FileTooLargeError } from "@/lib/errors";
import type { FormBody, UploadLimits } from "@/lib/limits/uploads";
import { loadRegister, MAX_REGISTER_BYTES } from "@/lib/leads/registers";
import { screenPhones } from "@/lib/leads/screening";
import { fieldErrors } from "@/lib/schemas/common";
import {
  registerUploadSchema,
  type PhoneRegisterDto,
  type RegisterLoadDto,
  type RegisterUpload,
} from "@/lib/schemas/admin";

// The admin's register upload: the fields `register` and `fileDate`, then the file (multipart, in
// that order, so the file is read once as it arrives), then a screening of every UK lead.

const MISSING_FILE = "A register file is required";
const fileTooLarge = () =>
  new FileTooLargeError(`The file is larger than ${MAX_REGISTER_BYTES / 1024 / 1024} MB`);

/** A register's bounds: one file of up to 1 GB, within an hour. */
export const REGISTER_LIMITS: UploadLimits = {
  pool: "imports",
  maxBytes: MAX_REGISTER_BYTES + 1024 * 1024,
  maxFileBytes: MAX_REGISTER_BYTES,
  files: 1,
  fields: 5,
  fieldBytes: 1024,
  deadlineSeconds: 60 * 60,
  tooLarge: fileTooLarge,
  fileTooLarge,
  unsupported: () =>
    badRequest('Upload the register as multipart/form-data in the field "file"', { file: MISSING_FILE }),
};

export async function loadRegisterUpload(body: FormBody): Promise<RegisterLoadDto> {
  if (!("parts" in body)) {
    throw badRequest('Upload the register as multipart/form-data in the field "file"', {
      file: MISSING_FILE,
    });
  }
  const fields: Record<string, string> = {};
  for await (const part of body.parts) {
    if (!("file" in part)) {
      fields[part.name] = part.value;
      continue;
    }
    if (part.name !== "file") continue;
    const parsed = registerUploadSchema.safeParse(fields);
    if (!parsed.success) {
      throw badRequest("Send register and fileDate before the file", fieldErrors(parsed.error));
    }
    const upload: RegisterUpload = parsed.data;
    // Awaited here: leaving the loop stops the parts, which must wait for the file to be read.
    const report = await loadRegister(
      pool(),
      upload.register,
      upload.fileDate,
      part.fileName.slice(0, 200),
      part.file,
    );
    return { ...report, screening: await screenPhones(pool()) };
  }
  throw badRequest("No file was uploaded", { file: MISSING_FILE });
}

/** The registers as loaded, for the Settings tab. */
export async function phoneRegisters(): Promise<PhoneRegisterDto[]> {
  const { rows } = await pool().query<PhoneRegisterDto>(
    `SELECT register, to_char(file_date, 'YYYY-MM-DD') AS "fileDate", file_name AS "fileName", numbers, rejected,
            to_char(loaded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "loadedAt"
       FROM phone_registers ORDER BY register`,
  );
  return rows;
}
