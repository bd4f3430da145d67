import { copyField } from "./copy-text";
import { TEXT_FIELDS } from "./fields";
import type { LeadInput } from "./insert";
import { checkPhone } from "./phone";

// A lead as a row of COPY's text format: the text fields, country and verification date, then the
// verdict of its email check (docs/product-rules.md, "Verification"), then its phone normalised
// (lib/leads/phone.ts; a UK number is screened after insertion, lib/leads/screening.ts), then its
// source and collection date, then where its person's notice is (lib/privacy/notices.ts).

const VERIFICATION_COLUMNS = `email_status "EmailStatus", email_checked_at timestamptz,
  email_status_reason text, role_account boolean, free_mail boolean`;

/** The columns of a lead row, in its order. */
export const LEAD_COLUMNS = [
  ...TEXT_FIELDS.map(({ column }) => column),
  "country",
  "verified_at",
  "email_status",
  "email_checked_at",
  "email_status_reason",
  "role_account",
  "free_mail",
  "phone_e164",
  "phone_status",
  "source",
  "collected_at",
  "notice_status",
].join(", ");

/** A private table of the same rows, for the ones that may repeat an email. */
export const STAGING = `CREATE TEMP TABLE lead_import (
    ${TEXT_FIELDS.map(({ column }) => `${column} text`).join(", ")}, country "Country",
    verified_at timestamptz, ${VERIFICATION_COLUMNS}, phone_e164 text, phone_status "PhoneStatus",
    source text, collected_at timestamptz, notice_status "NoticeStatus"
  ) ON COMMIT DROP`;

/** Most rows of an import share one verification time and one check time: each written once. */
function isoOfLast(): (date: Date) => string {
  let last: Date | undefined;
  let text = "";
  return (date) => {
    if (date !== last) {
      last = date;
      text = date.toISOString();
    }
    return text;
  };
}
const verifiedIso = isoOfLast();
const checkedIso = isoOfLast();
const collectedIso = isoOfLast();

/** What an import without a source stores (the column's default too). */
export const SOURCE_NOT_RECORDED = "Not recorded";

/** The row of a lead; `email` is the lead's, lower-cased (the unique key is on the stored text). */
export function copyLine(lead: LeadInput, email: string): string {
  let line = "";
  for (const { field } of TEXT_FIELDS) line += `${copyField(field === "email" ? email : lead[field])}\t`;
  const checked = lead.emailCheckedAt ? checkedIso(lead.emailCheckedAt) : "\\N";
  const reason = lead.emailStatusReason ? copyField(lead.emailStatusReason) : "";
  const phone = checkPhone(lead.phone, lead.country);
  return (
    `${line}${lead.country}\t${verifiedIso(lead.verifiedAt)}\t${lead.emailStatus ?? "unknown"}\t${checked}\t` +
    `${reason}\t${lead.roleAccount ? "t" : "f"}\t${lead.freeMail ? "t" : "f"}\t${phone.e164}\t${phone.status}\t` +
    `${copyField(lead.source ?? SOURCE_NOT_RECORDED)}\t${collectedIso(lead.collectedAt ?? lead.verifiedAt)}\t` +
    `${lead.noticeStatus ?? "not_required"}\n`
  );
}
