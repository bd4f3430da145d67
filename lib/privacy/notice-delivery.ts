import "server-only";
import type { Tx } from "@/lib/db";

// What the mail outbox tells a notice (lib/privacy/notices.ts) about its mail, in the transaction
// that records the attempt. Apart from notices.ts so the outbox, which notices.ts writes to, needs
// nothing of it.

/** The outbox kind of a notice: a privacy- mail, so the log masks its recipient. */
export const NOTICE_KIND = "privacy-notice";

/** SMTP refused the mail for good (a 5xx reply): the address does not take mail. */
export function permanentlyRefused(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

/** Handed to the SMTP server (or to the log, without one): its lead may now be sold. */
export async function noticeSent(tx: Tx, mailId: bigint): Promise<void> {
  await tx.$executeRaw`
    WITH notice AS (UPDATE privacy_notices SET sent_at = now() WHERE mail_id = ${mailId} RETURNING lead_id)
    UPDATE leads SET notice_status = 'sent' FROM notice WHERE leads.id = notice.lead_id`;
}

/** Refused for good: the address is invalid, so the lead is never sold (it waits no longer). */
export async function noticeBounced(tx: Tx, mailId: bigint, reply: string): Promise<void> {
  await tx.$executeRaw`
    WITH notice AS (UPDATE privacy_notices SET bounced_at = now() WHERE mail_id = ${mailId} RETURNING lead_id)
    UPDATE leads SET email_status = 'invalid', email_checked_at = now(),
           email_status_reason = left('Privacy notice refused: ' || ${reply}, 200)
      FROM notice WHERE leads.id = notice.lead_id`;
}

/** Not delivered within the outbox's 24 hours: the lead is due again, for a new notice. */
export async function noticeUndelivered(tx: Tx, mailId: bigint): Promise<void> {
  await tx.$executeRaw`
    UPDATE leads SET notice_status = 'due' FROM privacy_notices notice
     WHERE notice.mail_id = ${mailId} AND leads.id = notice.lead_id AND leads.notice_status = 'queued'`;
}
