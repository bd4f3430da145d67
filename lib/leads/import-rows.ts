import "server-only";
import type { Location } from "@/lib/location";
import { LEAD_FIELDS } from "@/lib/leads/fields";
import { parseVerifiedAt } from "@/lib/leads/import-dates";
import { SOURCE_NOT_RECORDED } from "@/lib/leads/copy-lines";
import type { LeadInput } from "@/lib/leads/insert";
import { MAX_SOURCE_LENGTH, type ImportRefusal } from "@/lib/schemas/admin";
import { localCheck, type EmailStatus } from "@/lib/verification/verify-addresses";

// One CSV row of an import read into a lead, or the reason it is refused. The checks that need no
// lookup run here (syntax, the disposable list, the role and free-mail flags); the domain's, which
// need DNS, run on whole batches (lib/leads/import-checks.ts).

const MAX_CELL_LENGTH = 1000;

type Field = keyof LeadInput | "fullName";

// A full name column fills first and last name when they have no columns of their own.
const FULL_NAME_ALIASES = ["name", "fullname", "contactname"];
// A row's own source overrides the file's; its collection date, the import's.
const SOURCE_ALIASES = ["source", "datasource", "leadsource"];
const COLLECTED_AT_ALIASES = ["collectedat", "collected", "collecteddate", "collectedon", "collectiondate"];

const FIELD_BY_ALIAS = new Map<string, Field>([
  ...LEAD_FIELDS.flatMap(({ field, aliases }) => aliases.map((alias): [string, Field] => [alias, field])),
  ...FULL_NAME_ALIASES.map((alias): [string, Field] => [alias, "fullName"]),
  ...SOURCE_ALIASES.map((alias): [string, Field] => [alias, "source"]),
  ...COLLECTED_AT_ALIASES.map((alias): [string, Field] => [alias, "collectedAt"]),
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

// Vendors' spellings of a status, compared as headers are ("Catch-All", "catch_all" and "catchall"
// alike). `risky` (Kickbox, Emailable: accept-all, but also low-quality, role and disposable
// addresses) claims nothing we could sell on, so it is `unknown`.
const STATUSES: Record<string, EmailStatus> = {
  valid: "valid",
  verified: "valid",
  deliverable: "valid",
  safe: "valid",
  safetosend: "valid",
  ok: "valid",
  acceptall: "accept_all",
  catchall: "accept_all",
  unknown: "unknown",
  unverified: "unknown",
  risky: "unknown",
  invalid: "invalid",
  notvalid: "invalid",
  undeliverable: "invalid",
  bounced: "invalid",
  bounce: "invalid",
  disposable: "invalid",
  spamtrap: "invalid",
  abuse: "invalid",
  donotmail: "invalid",
};

/** The status a vendor's cell names (empty: `unknown`), or null for a value we do not know. */
export function parseEmailStatus(text: string): EmailStatus | null {
  return text === "" ? "unknown" : (STATUSES[normalizeHeader(text)] ?? null);
}

/** A row read: the lead and its address's domain (lower-case ASCII), or why it is refused. */
export type RowResult = { lead: LeadInput; domain: string } | { code: ImportRefusal; reason: string };

function cell(columns: Map<Field, number>, record: string[], field: Field): string {
  const index = columns.get(field);
  if (index === undefined) return "";
  const value = record[index] ?? "";
  // NUL has no meaning in a lead and PostgreSQL text cannot hold it.
  return (value.includes("\u0000") ? value.replaceAll("\u0000", "") : value).trim();
}

/** Reads a row; `source` is the file's, for rows without a Source cell of their own. */
export function toLead(
  columns: Map<Field, number>,
  record: string[],
  now: Date,
  source: string = SOURCE_NOT_RECORDED,
): RowResult {
  const get = (field: Field): string => cell(columns, record, field);
  for (const [field, index] of columns) {
    if ((record[index] ?? "").length > MAX_CELL_LENGTH) {
      return {
        code: "value_too_long",
        reason: `Value too long in ${field} (at most ${MAX_CELL_LENGTH} characters)`,
      };
    }
  }
  const email = get("email");
  if (!email) return { code: "missing_email", reason: "Email is missing" };
  const { address, check } = localCheck(email);
  if (!address) return { code: "syntax", reason: `Invalid email "${email.slice(0, 100)}"` };

  const countryText = get("country");
  const country = countryText ? COUNTRIES[normalizeHeader(countryText)] : "USA";
  if (!country) {
    return { code: "country", reason: `Unsupported country "${countryText.slice(0, 60)}" (USA or UK)` };
  }

  const verifiedText = get("verifiedAt");
  const verifiedAt = verifiedText ? parseVerifiedAt(verifiedText, country, now) : now;
  if (!verifiedAt)
    return { code: "verified_at", reason: `Invalid verified date "${verifiedText.slice(0, 60)}"` };

  const statusText = get("emailStatus");
  const emailStatus = parseEmailStatus(statusText);
  if (!emailStatus) {
    return {
      code: "email_status",
      reason: `Unknown email status "${statusText.slice(0, 60)}" (valid, accept-all, unknown or invalid)`,
    };
  }
  const collectedText = get("collectedAt");
  const collectedAt = collectedText ? parseVerifiedAt(collectedText, country, now) : now;
  if (!collectedAt) {
    return { code: "collected_at", reason: `Invalid collected date "${collectedText.slice(0, 60)}"` };
  }
  const rowSource = get("source");
  if (rowSource.length > MAX_SOURCE_LENGTH) {
    return { code: "value_too_long", reason: `Source too long (at most ${MAX_SOURCE_LENGTH} characters)` };
  }

  if (check.reason === "disposable") {
    return { code: "disposable", reason: `Disposable email domain "${address.domain}"` };
  }

  let firstName = get("firstName");
  let lastName = get("lastName");
  if (!firstName && !lastName) {
    const [first = "", ...rest] = get("fullName").split(/\s+/);
    firstName = first;
    lastName = rest.join(" ");
  }
  return {
    domain: address.domain,
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
      emailStatus,
      roleAccount: check.roleAccount,
      freeMail: check.freeMail,
      source: rowSource || source,
      collectedAt,
    },
  };
}
