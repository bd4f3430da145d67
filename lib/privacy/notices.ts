import "server-only";
import { randomUUID } from "node:crypto";
import { errors as joseErrors } from "jose";
import { signLinkToken, verifyLinkToken } from "@/lib/auth/link-token";
import { db, transaction, type Tx } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError, badRequest } from "@/lib/errors";
import { Pace } from "@/lib/limits/pace";
import { queueMails } from "@/lib/mail/outbox";
import { privacyNoticeMail, type HeldLead } from "@/lib/privacy/mails";
import { erasePerson, heldLeads } from "@/lib/privacy/requests";
import { SELLER_REQUIRED } from "@/lib/schemas/admin";
import type { NoticeOptOutAnswer } from "@/lib/schemas/privacy";
import { getSettings } from "@/lib/settings";

// Article 14 notices (docs/product-rules.md, "UK compliance"). A UK lead imported while notices are
// on is `due`: not sellable. The pace takes due leads (PRIVACY_NOTICE_RATE an hour in all, shared
// by every instance through the `paces` row; at most PRIVACY_NOTICE_DOMAIN_RATE an hour per
// recipient domain, counted from the notices of the last hour), queues each one's notice in the
// mail outbox and marks it `queued`; once the outbox has handed the mail over, the trigger of
// prisma/derived/60-privacy-notices.sql marks it `sent` and the lead goes on sale (a recipient
// refused for good marks the address invalid; a mail given up after 24 hours makes it due again). The notice's link (signed, 60 days)
// opens a page that shows what we hold and erases the person with one button.

/** The outbox kind of a notice: a privacy- mail, so the log masks its recipient. */
const NOTICE_KIND = "privacy-notice";
const PACE = "privacy-notices";
// Claims are serialised: each counts the last hour's notices per domain before adding to them.
const CLAIM_LOCK = "privacy notice claim";
const TICK_MS = 15_000;
// At most this many notices a claim, whatever the pace allows.
const CLAIM_LIMIT = 500;
const LINK_VALID_DAYS = 60;
const AUDIENCE = "leadmarket-notice";

export type NoticePaces = { perHour: number; perDomainPerHour: number };

function configuredPaces(): NoticePaces {
  return { perHour: env().PRIVACY_NOTICE_RATE, perDomainPerHour: env().PRIVACY_NOTICE_DOMAIN_RATE };
}

type DueLead = { id: bigint; email: string; email_domain: string; source: string };

/**
 * The next due leads, a domain at a time (skipping domains that had their hour's notices), locked
 * for this claim: a loose scan of the waiting leads' index stops once `limit` leads are found.
 */
function dueLeads(tx: Tx, limit: number, perDomain: number): Promise<DueLead[]> {
  return tx.$queryRaw<DueLead[]>`
    WITH RECURSIVE domains AS (
      (SELECT email_domain FROM leads WHERE notice_status = 'due' ORDER BY email_domain LIMIT 1)
      UNION ALL
      SELECT (SELECT l.email_domain FROM leads l WHERE l.notice_status = 'due' AND l.email_domain > d.email_domain
               ORDER BY l.email_domain LIMIT 1)
        FROM domains d WHERE d.email_domain IS NOT NULL)
    SELECT lead.id, lead.email, lead.email_domain, lead.source
      FROM domains d
      CROSS JOIN LATERAL (
        SELECT id, email, email_domain, source FROM leads
         WHERE notice_status = 'due' AND email_domain = d.email_domain
         ORDER BY id
         LIMIT greatest(0, ${perDomain}::int - (SELECT count(*) FROM privacy_notices p
                 WHERE p.email_domain = d.email_domain AND p.queued_at > now() - interval '1 hour'))
         FOR NO KEY UPDATE SKIP LOCKED) lead
     WHERE d.email_domain IS NOT NULL
     LIMIT ${limit}::int`;
}

/**
 * Queues the notices the paces allow now (booking up to `aheadMs` of the hourly pace); answers how
 * many. Nothing while notices are off or the seller's identity, which every notice names, is
 * incomplete: the leads wait.
 */
export async function queueDueNotices(
  paces: NoticePaces = configuredPaces(),
  aheadMs = TICK_MS,
): Promise<number> {
  const settings = await getSettings();
  if (!settings.privacyNotices) {
    // Turning notices off released the waiting leads; this repeats it should that have failed.
    await releaseWaitingLeads();
    return 0;
  }
  if (SELLER_REQUIRED.some(({ field }) => settings[field] === "")) return 0;
  return transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${CLAIM_LOCK}, 0))`;
    const [{ any }] = await tx.$queryRaw<{ any: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM leads WHERE notice_status = 'due') AS any`;
    if (!any) return 0;
    const booked = await new Pace(PACE, paces.perHour / 3600).takeNow(CLAIM_LIMIT, aheadMs);
    if (booked === 0) return 0;
    const leads = await dueLeads(tx, booked, paces.perDomainPerHour);
    if (leads.length === 0) return 0;
    const base = env().PUBLIC_BASE_URL;
    const notices = await Promise.all(
      leads.map(async (lead) => {
        const id = randomUUID();
        const token = await signLinkToken({
          audience: AUDIENCE,
          subject: id,
          validSeconds: LINK_VALID_DAYS * 86_400,
        });
        const url = `${base}/privacy/notice?token=${encodeURIComponent(token)}`;
        const mail = privacyNoticeMail(lead.email, {
          seller: settings,
          source: lead.source,
          optOutUrl: url,
          validDays: LINK_VALID_DAYS,
        });
        return { id, lead, mail };
      }),
    );
    // A few statements for the whole claim: a round trip per notice took a claim of 500 past the
    // transaction's 15 s on a loaded machine, and a claim rolled back is made again every tick.
    const mailIds = await queueMails(
      notices.map((notice) => notice.mail),
      tx,
      NOTICE_KIND,
    );
    await tx.privacyNotice.createMany({
      data: notices.map(({ id, lead }, index) => ({
        id,
        leadId: lead.id,
        emailDomain: lead.email_domain,
        mailId: mailIds[index],
      })),
    });
    await tx.$executeRaw`UPDATE leads SET notice_status = 'queued' WHERE id = ANY(${leads.map((lead) => lead.id)}::bigint[])`;
    return leads.length;
  });
}

/** Notices off: the UK leads waiting for theirs go on sale (a queued notice is still sent). */
export async function releaseWaitingLeads(): Promise<void> {
  await db()
    .$executeRaw`UPDATE leads SET notice_status = 'not_required' WHERE notice_status IN ('due', 'queued')`;
}

const globalForNotices = globalThis as unknown as { noticeTimer?: NodeJS.Timeout; noticesRunning?: boolean };

/** Claims until one comes back short of a full claim (the pace or the due leads ran out). */
async function queueWhileFull(): Promise<void> {
  while ((await queueDueNotices()) === CLAIM_LIMIT);
}

/** Claims now unless this process is claiming; errors go to the log (the next tick retries). */
export function kickNotices(): void {
  if (globalForNotices.noticesRunning) return;
  globalForNotices.noticesRunning = true;
  queueWhileFull()
    .catch((error: Error) => console.error(`[notices] queueing notices failed: ${error.message}`))
    .finally(() => (globalForNotices.noticesRunning = false));
}

/** Queues notices at the pace, every few seconds, in this server process (once per process). */
export function startNoticeWorker(): void {
  if (globalForNotices.noticeTimer) return;
  globalForNotices.noticeTimer = setInterval(kickNotices, TICK_MS);
  globalForNotices.noticeTimer.unref();
  kickNotices();
}

const EXPIRED =
  "This opt-out link has expired (links work for 60 days). Send an erasure request from our privacy requests page.";
const INVALID = "This opt-out link is not valid. Open the link from the mail exactly as it was sent.";

/** The notice a link names, or the 400/410 it earns. */
async function noticeOf(token: string, now: Date): Promise<string> {
  try {
    const { sub } = await verifyLinkToken(AUDIENCE, token, now);
    if (typeof sub !== "string" || !/^[0-9a-f-]{36}$/.test(sub)) throw badRequest(INVALID);
    return sub;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new AppError(410, EXPIRED);
    if (error instanceof AppError) throw error;
    throw badRequest(INVALID);
  }
}

export type NoticeLink =
  | { state: "valid"; held: HeldLead[] }
  | { state: "opted_out" | "not_held" }
  | { state: "invalid" | "expired"; message: string };

/** What the link's page shows: what we hold about its recipient, or why there is nothing to do. */
export async function readNoticeLink(token: string, now = new Date()): Promise<NoticeLink> {
  let id: string;
  try {
    id = await noticeOf(token, now);
  } catch (error) {
    const status = error instanceof AppError ? error.status : 400;
    return status === 410 ? { state: "expired", message: EXPIRED } : { state: "invalid", message: INVALID };
  }
  return transaction(async (tx) => {
    const notice = await tx.privacyNotice.findUnique({
      where: { id },
      select: { optedOutAt: true, lead: { select: { email: true } } },
    });
    if (!notice) return { state: "invalid", message: INVALID };
    if (notice.optedOutAt) return { state: "opted_out" };
    if (!notice.lead) return { state: "not_held" };
    return { state: "valid", held: await heldLeads(tx, notice.lead.email) };
  });
}

/**
 * The opt-out button: erases the notice's recipient everywhere (the erasure of a confirmed privacy
 * request: the link proves the mailbox) and keeps them out of later imports. Once per link.
 */
export async function optOutByNotice(token: string, now = new Date()): Promise<NoticeOptOutAnswer> {
  const id = await noticeOf(token, now);
  return transaction(async (tx) => {
    const [notice] = await tx.$queryRaw<{ opted_out_at: Date | null; email: string | null }[]>`
      SELECT n.opted_out_at, l.email FROM privacy_notices n LEFT JOIN leads l ON l.id = n.lead_id
       WHERE n.id = ${id}::uuid FOR UPDATE OF n`;
    if (!notice) throw badRequest(INVALID);
    if (notice.opted_out_at) return { success: true, state: "already_completed" };
    if (notice.email) await erasePerson(tx, notice.email);
    await tx.privacyNotice.update({ where: { id }, data: { optedOutAt: now }, select: { id: true } });
    return { success: true, state: "completed" };
  });
}

export type NoticeFigures = {
  enabled: boolean;
  sentThisMonth: number;
  waiting: number;
  optedOutThisMonth: number;
};

/** The dashboard's figures: notices sent and opt-outs this calendar month (UTC), leads waiting. */
export async function noticeFigures(enabled: boolean): Promise<NoticeFigures> {
  const [row] = await db().$queryRaw<{ sent: number; waiting: number; opted_out: number }[]>`
    SELECT (SELECT count(*)::int FROM privacy_notices WHERE sent_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS sent,
           (SELECT count(*)::int FROM leads WHERE notice_status IN ('due', 'queued')) AS waiting,
           (SELECT count(*)::int FROM privacy_notices WHERE opted_out_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS opted_out`;
  return { enabled, sentThisMonth: row.sent, waiting: row.waiting, optedOutThisMonth: row.opted_out };
}
