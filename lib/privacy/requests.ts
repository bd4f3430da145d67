import "server-only";
import type { Caller } from "@/lib/limits/caller";
import { revalidateCatalogue } from "@/lib/categories/cache";
import { errors as joseErrors } from "jose";
import { assertWithinLimit, MAILS_PER_ADDRESS, takeToken } from "@/lib/limits/throttle";
import { signLinkToken, verifyLinkToken } from "@/lib/auth/link-token";
import { afterCommit, db, transaction, type Tx } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError, badRequest } from "@/lib/errors";
import { ERASURE_LOCK } from "@/lib/leads/insert";
import { queueMail, PRIVATE_KIND_PREFIX } from "@/lib/mail/outbox";
import { accessReportMail, privacyConfirmationMail, type HeldLead } from "@/lib/privacy/mails";
import { emailHash, maskEmail, normalizeEmail } from "@/lib/mail/address";
import type { PrivacyConfirmAnswer, PrivacyKind, PrivacyRequestDto } from "@/lib/schemas/privacy";

// GDPR requests (docs/product-rules.md, "Privacy requests"). A request mails a signed confirmation
// link valid 24 hours and does nothing else; confirming runs it once. The clear-text email is kept
// on the request only until then (hash and masked form stay), and an erasure removes it from every
// table that held it, the mail outbox included.

const REQUESTS_PER_ADDRESS = { max: 10, windowSeconds: 3600 };
const VALID_HOURS = 24;
const AUDIENCE = "leadmarket-privacy";
const CONFIRMATION_KIND = `${PRIVATE_KIND_PREFIX}confirmation`;
const ACCESS_KIND = `${PRIVATE_KIND_PREFIX}access-report`;

export function signPrivacyToken(requestId: string, kind: PrivacyKind, now = new Date()): Promise<string> {
  return signLinkToken(
    { audience: AUDIENCE, subject: requestId, validSeconds: VALID_HOURS * 3600, claims: { kind } },
    now,
  );
}

const EXPIRED =
  "This confirmation link has expired (links work for 24 hours). Send a new request from the privacy requests page.";
const INVALID = "This confirmation link is not valid. Open the link from the mail exactly as it was sent.";

async function verifyPrivacyToken(token: string, now: Date): Promise<string> {
  try {
    const payload = await verifyLinkToken(AUDIENCE, token, now);
    if (typeof payload.sub !== "string" || !/^[0-9a-f-]{36}$/.test(payload.sub)) throw badRequest(INVALID);
    return payload.sub;
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new AppError(410, EXPIRED);
    if (error instanceof AppError) throw error;
    throw badRequest(INVALID);
  }
}

/**
 * Records a request and mails its confirmation link, unless the email had 3 such mails today (then
 * nothing happens, with the same answer). Per address of the caller, 10 requests an hour (429 after).
 */
export async function requestPrivacyAction(email: string, kind: PrivacyKind, caller: Caller): Promise<void> {
  await assertWithinLimit(
    { bucket: `privacy-request:${caller.clientIp}`, ...REQUESTS_PER_ADDRESS },
    "Too many privacy requests from your address. Please try again later.",
  );
  const normalized = normalizeEmail(email);
  if ((await takeToken({ bucket: `privacy-mail:${normalized}`, ...MAILS_PER_ADDRESS })) !== null) return;
  await transaction(async (tx) => {
    const request = await tx.privacyRequest.create({
      data: { kind, email: normalized, emailHash: emailHash(normalized), emailMasked: maskEmail(normalized) },
      select: { id: true },
    });
    const token = await signPrivacyToken(request.id, kind);
    const url = `${env().PUBLIC_BASE_URL}/privacy/requests/confirm?token=${encodeURIComponent(token)}`;
    await queueMail(privacyConfirmationMail(normalized, kind, url, VALID_HOURS), tx, CONFIRMATION_KIND);
  });
}

const FIELDS = [
  ["First name", "firstName"],
  ["Last name", "lastName"],
  ["Job title", "jobTitle"],
  ["Seniority", "seniority"],
  ["Department", "department"],
  ["Company", "company"],
  ["Company website", "companyWebsite"],
  ["Company size", "companySize"],
  ["Company revenue", "companyRevenue"],
  ["Industry", "industry"],
  ["Email", "email"],
  ["Phone", "phone"],
  ["City", "city"],
  ["State", "state"],
  ["Country", "country"],
  ["Profile URL", "profileUrl"],
] as const;

/**
 * The person's leads in every category. Leads are stored with lower-cased emails
 * (lib/leads/insert.ts), so equality on the normalised address is case-insensitive; naming the
 * categories lets PostgreSQL use the (category, email) key instead of reading every lead.
 */
async function personLeadsWhere(tx: Tx, email: string) {
  const categories = await tx.category.findMany({ select: { id: true } });
  return { categoryId: { in: categories.map((category) => category.id) }, email };
}

/** Every lead record held with the address, in every category, with the orders that delivered it. */
export async function heldLeads(tx: Tx, email: string): Promise<HeldLead[]> {
  const leads = await tx.lead.findMany({
    where: await personLeadsWhere(tx, email),
    orderBy: { category: { title: "asc" } },
    select: {
      ...Object.fromEntries(FIELDS.map(([, field]) => [field, true])),
      verifiedAt: true,
      category: { select: { title: true } },
      orderLeads: {
        where: { order: { paidAt: { not: null } } },
        orderBy: { order: { paidAt: "asc" } },
        select: { order: { select: { paidAt: true, packageType: true } } },
      },
    },
  });
  return leads.map((lead) => {
    const values = lead as unknown as Record<(typeof FIELDS)[number][1], string>;
    return {
      categoryTitle: lead.category.title,
      fields: [
        ...FIELDS.map(([label, field]): [string, string] => [label, String(values[field] ?? "")]),
        ["Verified at", lead.verifiedAt.toISOString().slice(0, 10)],
      ],
      deliveries: lead.orderLeads.map(({ order }) => ({
        paidAt: order.paidAt!,
        packageType: order.packageType,
      })),
    };
  });
}

// What may stand right before an address without being part of it (anything but a local part's
// characters); after it, anything but a domain's (a dot only when no domain label follows).
const LOCAL_CHARS = "a-z0-9.!#$%&'*+/=?^_`{|}~-";
const NOT_LOCAL = `[^${LOCAL_CHARS}]`;
const NOT_DOMAIN = "([^a-z0-9.-]|\\.([^a-z0-9-]|$)|$)";

/** `email` with every ASCII punctuation mark escaped, so a pattern matches it literally. */
const literalAddress = (email: string): string => email.replace(/[!-/:-?[-`{-~]/g, "\\$&");

/** A PostgreSQL regular expression matching `email` (normalised) as a whole address in a text. */
function addressPattern(email: string): string {
  return `(^|${NOT_LOCAL})${literalAddress(email)}${NOT_DOMAIN}`;
}

/** The same, matching the address alone (its surroundings as constraints): what a replace swaps. */
function addressOnlyPattern(email: string): string {
  return `(?<![${LOCAL_CHARS}])${literalAddress(email)}(?=${NOT_DOMAIN})`;
}

/**
 * Erases a person: their leads in every category (and those leads' rows in sold orders, so later
 * downloads no longer hold them; each such order records the person's email hash as an opt-out),
 * category counts, their address wherever else it was kept (the mail outbox, buyer emails, custom
 * requests and the texts of others', sign-in attempts, other privacy requests); adds the hash to
 * the erased emails. Buyers' exclusion lists keep their hashes: a hash there keeps the person out of
 * that buyer's order. A catalogue change: category counts move.
 */
export async function erasePerson(tx: Tx, email: string): Promise<void> {
  // After any import under way has committed, and before the next one reads the suppression list.
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${ERASURE_LOCK}, 0))`;
  const hash = emailHash(email);
  const masked = maskEmail(email);
  const leads = await tx.lead.findMany({
    where: await personLeadsWhere(tx, email),
    select: { id: true },
  });
  const ids = leads.map((lead) => lead.id);
  afterCommit(tx, revalidateCatalogue);
  // The orders that delivered them learn of it (GET /api/orders/{key}/opt-outs) before their rows
  // leave those orders' files, and so do those that delivered them before a replacement or a heal
  // swapped them out: their holders downloaded the row.
  await tx.$executeRaw`
    INSERT INTO order_opt_outs (order_id, email_hash)
    SELECT order_id, ${hash} FROM (
      SELECT order_id FROM order_leads WHERE lead_id = ANY(${ids}::bigint[])
      UNION SELECT order_id FROM replacement_reports WHERE lead_id = ANY(${ids}::bigint[])
      UNION SELECT order_id FROM order_heals WHERE old_lead_id = ANY(${ids}::bigint[])) AS delivered
    ON CONFLICT DO NOTHING`;
  await tx.orderLead.deleteMany({ where: { leadId: { in: ids } } });
  await tx.lead.deleteMany({ where: { id: { in: ids } } });
  // The triggers on leads take the sellable ones out of their category's count.
  await tx.erasedEmail.createMany({ data: [{ emailHash: hash }], skipDuplicates: true });
  // Any mail to or about the person keeps its subject only; one not yet sent never will be. A
  // mail is about them when one of its texts holds the whole address: a longer one that contains
  // it (jimbob@x, bob@x.com for bob@x) is someone else's.
  await tx.$executeRaw`
    UPDATE mail_outbox
       SET recipient = ${masked},
           mail = jsonb_build_object('to', ${masked}::text, 'subject', mail->>'subject', 'text', ''),
           status = CASE WHEN status = 'pending' THEN 'erased' ELSE status END, last_error = NULL
     WHERE recipient = ${email}
        OR EXISTS (SELECT FROM jsonb_path_query(mail, 'strict $.**') AS value
                    WHERE jsonb_typeof(value) = 'string' AND lower(value #>> '{}') ~ ${addressPattern(email)})`;
  // Buyer emails are stored normalised at checkout (as find-my-orders reads them), so the index
  // serves; custom requests keep the address as typed.
  await tx.order.updateMany({ where: { buyerEmail: email }, data: { buyerEmail: null } });
  await tx.customRequest.updateMany({
    where: { email: { equals: email, mode: "insensitive" } },
    data: { email: masked },
  });
  // Other people's requests may name the person in their texts: the whole address (any case) is
  // masked there, a longer one containing it is left alone.
  const only = addressOnlyPattern(email);
  await tx.$executeRaw`
    UPDATE custom_requests
       SET name = regexp_replace(name, ${only}, ${masked}, 'gi'),
           industry = regexp_replace(industry, ${only}, ${masked}, 'gi'),
           role = regexp_replace(role, ${only}, ${masked}, 'gi'),
           platform = regexp_replace(platform, ${only}, ${masked}, 'gi'),
           message = regexp_replace(message, ${only}, ${masked}, 'gi')
     WHERE concat_ws(' ', name, industry, role, platform, message) ~* ${only}`;
  // Sign-in attempts keep counting for the lockout under the masked address.
  await tx.loginAttempt.updateMany({ where: { email }, data: { email: masked } });
  await tx.privacyRequest.updateMany({ where: { emailHash: hash }, data: { email: null } });
}

type LockedRequest = { id: string; kind: PrivacyKind; email: string | null; state: string; created_at: Date };

/**
 * Runs the request a confirmation link names, once. A second click answers `already_completed`;
 * an expired link 410.
 */
export async function confirmPrivacyRequest(token: string, now = new Date()): Promise<PrivacyConfirmAnswer> {
  const requestId = await verifyPrivacyToken(token, now);
  const answer = await transaction(async (tx): Promise<PrivacyConfirmAnswer | null> => {
    const [request] = await tx.$queryRaw<LockedRequest[]>`
      SELECT id, kind, email, state, created_at FROM privacy_requests WHERE id = ${requestId}::uuid FOR UPDATE`;
    if (!request) throw badRequest(INVALID);
    if (request.state === "completed")
      return { success: true, kind: request.kind, state: "already_completed" };
    const expired = now.getTime() - request.created_at.getTime() > VALID_HOURS * 3600 * 1000;
    if (request.state === "expired" || expired || !request.email) {
      await tx.privacyRequest.update({
        where: { id: request.id },
        data: { state: "expired", email: null },
        select: { id: true },
      });
      return null;
    }
    if (request.kind === "erasure") {
      await erasePerson(tx, request.email);
    } else {
      await queueMail(accessReportMail(request.email, await heldLeads(tx, request.email)), tx, ACCESS_KIND);
    }
    await tx.privacyRequest.update({
      where: { id: request.id },
      data: { state: "completed", confirmedAt: now, email: null },
      select: { id: true },
    });
    return { success: true, kind: request.kind, state: "completed" };
  });
  if (!answer) throw new AppError(410, EXPIRED);
  return answer;
}

/** Unconfirmed requests older than 24 hours expire and lose their clear-text email. */
export async function expirePrivacyRequests(now = new Date()): Promise<number> {
  const { count } = await db().privacyRequest.updateMany({
    where: { state: "pending", createdAt: { lt: new Date(now.getTime() - VALID_HOURS * 3600 * 1000) } },
    data: { state: "expired", email: null },
  });
  return count;
}

/** The admin's list, newest first: masked emails only. */
export async function listPrivacyRequests(limit = 200): Promise<PrivacyRequestDto[]> {
  const rows = await db().privacyRequest.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: limit,
    select: { id: true, kind: true, emailMasked: true, state: true, createdAt: true, confirmedAt: true },
  });
  const staleBefore = Date.now() - VALID_HOURS * 3600 * 1000;
  return rows.map((row) => ({
    _id: row.id,
    kind: row.kind as PrivacyKind,
    maskedEmail: row.emailMasked,
    state:
      row.state === "pending" && row.createdAt.getTime() < staleBefore
        ? "expired"
        : (row.state as PrivacyRequestDto["state"]),
    createdAt: row.createdAt.toISOString(),
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
  }));
}
