import "server-only";
import type { Readable } from "node:stream";
import { db, pool } from "@/lib/db";
import { AppError, badRequest, FileTooLargeError, notFound } from "@/lib/errors";
import { consumeFile, type FormBody, type UploadLimits } from "@/lib/limits/uploads";
import { revalidateCatalogue } from "@/lib/categories/cache";
import { csvRecords, UploadError } from "@/lib/leads/csv-records";
import { IMPORTED_FIELDS } from "@/lib/leads/fields";
import { insertLeadStream, type LeadInput } from "@/lib/leads/insert";
import type { Location } from "@/lib/categories/location";
import type { ImportReport } from "@/lib/schemas/admin";

// CSV lead import. The upload is streamed: busboy hands over the file part, csvRecords turns it into
// rows, rows are validated one by one and valid ones go on to PostgreSQL by COPY (insertLeadStream)
// in batches while the next batch is being parsed, so neither a 1,000,000-row file nor its rows are
// ever held in memory at once. The import is one transaction: all of it or, when the upload breaks
// off, none of it.

export const MAX_IMPORT_BYTES = 1024 * 1024 * 1024;
const BATCH_SIZE = 5000;
const MAX_REPORTED_INVALID = 1000;
const MAX_CELL_LENGTH = 1000;

type Field = keyof LeadInput | "fullName";

// A full name column fills first and last name when they have no columns of their own.
const FULL_NAME_ALIASES = ["name", "fullname", "contactname"];

const FIELD_BY_ALIAS = new Map<string, Field>([
  ...IMPORTED_FIELDS.flatMap(({ field, aliases }) => aliases.map((alias): [string, Field] => [alias, field])),
  ...FULL_NAME_ALIASES.map((alias): [string, Field] => [alias, "fullName"]),
]);

export function normalizeHeader(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Column index per known field; the first matching column wins. */
export function mapHeader(header: string[]): Map<Field, number> {
  const columns = new Map<Field, number>();
  header.forEach((name, index) => {
    const field = FIELD_BY_ALIAS.get(normalizeHeader(name));
    if (field && !columns.has(field)) columns.set(field, index);
  });
  return columns;
}

const COUNTRIES: Record<string, Location> = {
  usa: "USA",
  us: "USA",
  unitedstates: "USA",
  unitedstatesofamerica: "USA",
  america: "USA",
  uk: "UK",
  gb: "UK",
  gbr: "UK",
  greatbritain: "UK",
  unitedkingdom: "UK",
  england: "UK",
  scotland: "UK",
  wales: "UK",
  northernireland: "UK",
};

// Deliberately simple: one @, no spaces, a dot in the domain. Full RFC parsing is not the point.
const EMAIL = /^[^\s@"<>(),;:]+@[^\s@"<>(),;:]+\.[^\s@"<>(),;:]+$/;

type RowResult = { lead: LeadInput } | { reason: string };

// Delivery sends the most recently verified leads first, so a date must be a real one, from 1990 to
// today (a day of slack for time zones), read from an explicit list of formats, all in UTC:
// ISO 8601 (a date, or a date and time with an optional offset), year-first with slashes, and a
// slashed date with the year last read as the row's country writes it: day first in the UK, month
// first in the USA. A date that does not fit is refused for its line, never swapped silently
// (`new Date("05/01/2024")` would read a UK 5 January as 1 May).
const EARLIEST_VERIFIED = Date.UTC(1990, 0, 1);
const DAY_MS = 24 * 3600 * 1000;
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const YEAR_FIRST = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/;
const YEAR_LAST = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** The UTC instant of a calendar date and time, or null when a part is out of range (31 April). */
function utc(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  ms = 0,
): number | null {
  const time = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const date = new Date(time);
  const exact =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return exact ? time : null;
}

function offsetMinutes(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === "Z") return 0;
  const digits = zone.slice(1).replace(":", "");
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0");
  return zone.startsWith("-") ? -minutes : minutes;
}

function readDate(text: string, country: Location): number | null {
  const iso = ISO_DATE.exec(text);
  if (iso) {
    const [, year, month, day, hour, minute, second, fraction, zone] = iso;
    const ms = fraction ? Number(fraction.slice(0, 3).padEnd(3, "0")) : 0;
    const local = utc(+year, +month, +day, Number(hour ?? 0), Number(minute ?? 0), Number(second ?? 0), ms);
    return local === null ? null : local - offsetMinutes(zone) * 60_000;
  }
  const yearFirst = YEAR_FIRST.exec(text);
  if (yearFirst) return utc(+yearFirst[1], +yearFirst[2], +yearFirst[3]);
  const yearLast = YEAR_LAST.exec(text);
  if (yearLast) {
    const [, first, second, year] = yearLast;
    return country === "UK" ? utc(+year, +second, +first) : utc(+year, +first, +second);
  }
  return null;
}

export function parseVerifiedAt(text: string, country: Location, now: Date): Date | null {
  const time = readDate(text.trim(), country);
  return time === null || time < EARLIEST_VERIFIED || time > now.getTime() + DAY_MS ? null : new Date(time);
}

function cell(columns: Map<Field, number>, record: string[], field: Field): string {
  const index = columns.get(field);
  if (index === undefined) return "";
  const value = record[index] ?? "";
  // NUL has no meaning in a lead and PostgreSQL text cannot hold it.
  return (value.includes("\u0000") ? value.replaceAll("\u0000", "") : value).trim();
}

export function toLead(columns: Map<Field, number>, record: string[], now: Date): RowResult {
  const get = (field: Field): string => cell(columns, record, field);
  for (const [field, index] of columns) {
    if ((record[index] ?? "").length > MAX_CELL_LENGTH) {
      return { reason: `Value too long in ${field} (at most ${MAX_CELL_LENGTH} characters)` };
    }
  }
  const email = get("email");
  if (!email) return { reason: "Email is missing" };
  if (email.length > 254 || !EMAIL.test(email)) return { reason: `Invalid email "${email.slice(0, 100)}"` };

  const countryText = get("country");
  const country = countryText ? COUNTRIES[normalizeHeader(countryText)] : "USA";
  if (!country) return { reason: `Unsupported country "${countryText.slice(0, 60)}" (USA or UK)` };

  const verifiedText = get("verifiedAt");
  const verifiedAt = verifiedText ? parseVerifiedAt(verifiedText, country, now) : now;
  if (!verifiedAt) return { reason: `Invalid verified date "${verifiedText.slice(0, 60)}"` };

  let firstName = get("firstName");
  let lastName = get("lastName");
  if (!firstName && !lastName) {
    const [first = "", ...rest] = get("fullName").split(/\s+/);
    firstName = first;
    lastName = rest.join(" ");
  }
  return {
    lead: {
      firstName,
      lastName,
      jobTitle: get("jobTitle"),
      seniority: get("seniority"),
      department: get("department"),
      company: get("company"),
      companyWebsite: get("companyWebsite"),
      companySize: get("companySize"),
      companyRevenue: get("companyRevenue"),
      industry: get("industry"),
      email,
      phone: get("phone"),
      city: get("city"),
      state: get("state"),
      country,
      profileUrl: get("profileUrl"),
      verifiedAt,
    },
  };
}

/** Imports rows from a CSV byte stream into a category. */
export async function importLeadsCsv(categoryId: string, input: Readable): Promise<ImportReport> {
  const report: ImportReport = {
    imported: 0,
    duplicates: 0,
    suppressed: 0,
    invalid: [],
    invalidCount: 0,
    unknownFacets: { region: 0, seniority: 0, department: 0, size: 0, revenue: 0 },
  };
  const addInvalid = (line: number, reason: string) => {
    report.invalidCount += 1;
    if (report.invalid.length < MAX_REPORTED_INVALID) report.invalid.push({ line, reason });
  };
  const now = new Date();
  // The valid rows, a batch at a time; invalid ones go to the report. A malformed spot or the size
  // limit ends the rows early, and those before it are imported.
  async function* validLeads(): AsyncGenerator<LeadInput[]> {
    let columns: Map<Field, number> | undefined;
    let batch: LeadInput[] = [];
    try {
      records: for await (const items of csvRecords(input)) {
        for (const item of items) {
          if ("malformed" in item) {
            // Rows before a malformed spot are kept (and reported); the rest of the file is not read.
            const { lines } = item.malformed;
            addInvalid(
              typeof lines === "number" ? lines : 0,
              `Malformed CSV, import stopped here: ${item.malformed.message}`,
            );
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
          const result = toLead(columns, record, now);
          if ("reason" in result) addInvalid(line, result.reason);
          else {
            batch.push(result.lead);
            if (batch.length >= BATCH_SIZE) {
              yield batch;
              batch = [];
            }
          }
        }
      }
    } catch (error) {
      if (error instanceof FileTooLargeError) {
        addInvalid(0, `File larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB, import stopped`);
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

  const { received, inserted, suppressed, unknownFacets } = await insertLeadStream(
    pool(),
    categoryId,
    validLeads(),
  );
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

/** Imports the upload's file (field "file") into the category. Other parts are ignored; a missing file is a 400. */
export async function importLeadsUpload(categoryId: string, body: FormBody): Promise<ImportReport> {
  const exists = await db().category.findUnique({ where: { id: categoryId }, select: { id: true } });
  if (!exists) throw notFound("Category not found");
  return consumeFile(body, "file", MISSING_FILE, (file) => importLeadsCsv(categoryId, file));
}
