import "server-only";
import type { Readable } from "node:stream";
import { db, pool } from "@/lib/db";
import { AppError, badRequest, FileTooLargeError, notFound } from "@/lib/errors";
import { consumeFile, type FormBody, type FormPart, type UploadLimits } from "@/lib/limits/uploads";
import { revalidateCatalogue } from "@/lib/categories/cache";
import { csvRecords, UploadError } from "@/lib/leads/csv-records";
import { domainChecked, type Refused, type Row } from "@/lib/leads/import-checks";
import { mapHeader, toLead } from "@/lib/leads/import-rows";
import { insertLeadStream } from "@/lib/leads/insert";
import { screenPhones } from "@/lib/leads/screening";
import { IMPORT_REFUSALS, importSource, type ImportReport } from "@/lib/schemas/admin";
import { getEmailVerifierApiKey, getSettings } from "@/lib/settings";
import { mailDomainChecker, zeroBounce } from "@/lib/verification/configured";
import type { MailDomainChecker } from "@/lib/verification/mail-domain";

// CSV lead import. The upload is streamed: busboy hands over the file part, csvRecords turns it into
// rows, rows are read and checked one by one (lib/leads/import-rows.ts), their domains a batch at a
// time (lib/leads/import-checks.ts), and the rows that pass go on to PostgreSQL by COPY
// (insertLeadStream) in batches while the next batches are being parsed and looked up, so neither
// a 1,000,000-row file nor its rows are ever held in memory at once. The import is one
// transaction: all of it or, when the upload breaks off, none of it.

export const MAX_IMPORT_BYTES = 1024 * 1024 * 1024;
// Small batches: the first rows reach PostgreSQL as soon as their own domains have answered.
const BATCH_SIZE = 1000;
const MAX_REPORTED_INVALID = 1000;

export type ImportChecks = {
  domains: MailDomainChecker;
  /** A verification provider is configured: imported leads are queued for it. */
  queued: boolean;
  /** The import's whole wait on DNS. */
  waitMs?: number;
};

/** The checks as configured: DNS_SERVERS, and the provider's key from Settings or the environment. */
async function configuredChecks(): Promise<ImportChecks> {
  return { domains: mailDomainChecker(), queued: zeroBounce(await getEmailVerifierApiKey()) !== null };
}

/** Imports rows from a CSV byte stream into a category; `source` is the file's (null: none given). */
export async function importLeadsCsv(
  categoryId: string,
  input: Readable,
  checks?: ImportChecks,
  source: string | null = null,
): Promise<ImportReport> {
  const report: ImportReport = {
    imported: 0,
    duplicates: 0,
    suppressed: 0,
    invalid: [],
    invalidCount: 0,
    reasons: Object.fromEntries(IMPORT_REFUSALS.map((code) => [code, 0])) as ImportReport["reasons"],
    unknownFacets: { region: 0, seniority: 0, department: 0, size: 0, revenue: 0 },
    source,
  };
  const refuse = ({ line, code, reason }: Refused) => {
    report.invalidCount += 1;
    report.reasons[code] += 1;
    if (report.invalid.length < MAX_REPORTED_INVALID) report.invalid.push({ line, reason });
  };
  const now = new Date();
  const notices = (await getSettings()).privacyNotices;
  // The rows read, a batch at a time, refused ones among them in their place. A malformed spot or
  // the size limit ends the rows early, and those before it are imported.
  async function* rows(): AsyncGenerator<(Row | Refused)[]> {
    let columns: ReturnType<typeof mapHeader> | undefined;
    let batch: (Row | Refused)[] = [];
    try {
      records: for await (const items of csvRecords(input)) {
        for (const item of items) {
          if ("malformed" in item) {
            // Rows before a malformed spot are kept (and reported); the rest of the file is not read.
            const { lines, message } = item.malformed;
            batch.push({
              line: typeof lines === "number" ? lines : 0,
              code: "malformed_csv",
              reason: `Malformed CSV, import stopped here: ${message}`,
            });
            break records;
          }
          const { record, line } = item;
          if (!columns) {
            columns = mapHeader(record);
            if (!columns.has("email")) {
              throw badRequest("The file has no email column", { file: "The file has no email column" });
            }
            continue;
          }
          if (record.every((cell) => cell.trim() === "")) continue;
          const result = toLead(columns, record, now, source ?? undefined);
          // A UK row waits for its person's notice before it is sold (lib/privacy/notices.ts).
          if (notices && "lead" in result && result.lead.country === "UK") result.lead.noticeStatus = "due";
          batch.push({ line, ...result });
          if (batch.length >= BATCH_SIZE) {
            yield batch;
            batch = [];
          }
        }
      }
    } catch (error) {
      if (error instanceof FileTooLargeError) {
        batch.push({
          line: 0,
          code: "file_too_large",
          reason: `File larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB, import stopped`,
        });
      } else if (error instanceof AppError) {
        throw error;
      } else if (error instanceof UploadError) {
        throw badRequest(`The upload was interrupted: ${error.message}`);
      } else {
        throw error;
      }
    }
    if (!columns) throw badRequest("The file is empty", { file: "The file is empty" });
    if (batch.length > 0) yield batch;
  }

  const leads = domainChecked(rows(), { ...(checks ?? (await configuredChecks())), now, refuse });
  const { received, inserted, suppressed, unknownFacets } = await insertLeadStream(pool(), categoryId, leads);
  // The new UK rows are screened against the registers now, not at the next register upload.
  if (inserted > 0) await screenPhones(pool(), categoryId);
  report.unknownFacets = unknownFacets;
  revalidateCatalogue();
  report.imported = inserted;
  report.suppressed = suppressed;
  report.duplicates = received - inserted - suppressed;
  return report;
}

const MISSING_FILE = "A CSV file is required";
const fileTooLarge = () =>
  new FileTooLargeError(`The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB`);

/** An import's bounds: one file of up to 1 GB, within an hour. */
export const IMPORT_LIMITS: UploadLimits = {
  pool: "imports",
  // Room for the multipart framing around the file.
  maxBytes: MAX_IMPORT_BYTES + 1024 * 1024,
  maxFileBytes: MAX_IMPORT_BYTES,
  files: 1,
  deadlineSeconds: 60 * 60,
  tooLarge: fileTooLarge,
  fileTooLarge,
  unsupported: () =>
    badRequest('Upload the file as multipart/form-data in the field "file"', { file: MISSING_FILE }),
};

/**
 * Imports the upload's file (field "file") into the category, with the source of the field
 * "source" when it comes before the file (docs/product-rules.md, "UK compliance"). Other parts are
 * ignored; a missing file is a 400.
 */
export async function importLeadsUpload(categoryId: string, body: FormBody): Promise<ImportReport> {
  const exists = await db().category.findUnique({ where: { id: categoryId }, select: { id: true } });
  if (!exists) throw notFound("Category not found");
  let source: string | null = null;
  // The parts as they arrive, the source field read on the way to the file.
  async function* readingSource(parts: AsyncIterable<FormPart>): AsyncGenerator<FormPart> {
    for await (const part of parts) {
      if (part.name === "source" && "value" in part) {
        const parsed = importSource.safeParse(part.value);
        if (!parsed.success) {
          const message = parsed.error.issues[0].message;
          throw badRequest(message, { source: message });
        }
        source = parsed.data;
      }
      yield part;
    }
  }
  const read: FormBody = "parts" in body ? { parts: readingSource(body.parts) } : body;
  return consumeFile(read, "file", MISSING_FILE, (file) =>
    importLeadsCsv(categoryId, file, undefined, source),
  );
}
