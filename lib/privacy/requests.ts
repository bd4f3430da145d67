import "server-only";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { PoolClient } from "pg";
import { assertWithinLimit, takeToken } from "@/lib/api/throttle";
import { pool, withTransaction } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError, badRequest } from "@/lib/errors";
import { queueMail, PRIVATE_KIND_PREFIX } from "@/lib/mail/outbox";
import { accessReportMail, privacyConfirmationMail, type HeldLead } from "@/lib/privacy/mails";
import { emailHash, maskEmail, normalizeEmail } from "@/lib/privacy/email";
import type { PrivacyConfirmAnswer, PrivacyKind, PrivacyRequestDto } from "@/lib/schemas/privacy";

// GDPR requests (docs/product-rules.md, "Privacy requests"). A request mails a signed confirmation
// link valid 24 hours and does nothing else; confirming runs it once. The clear-text email is kept
// on the request only until then (hash and masked form stay), and an erasure removes it from every
// table that held it, the mail outbox included.

const REQUESTS_PER_ADDRESS = { max: 10, windowSeconds: 3600 };
const MAILS_PER_EMAIL = { max: 3, windowSeconds: 24 * 3600 };
const VALID_HOURS = 24;
const ISSUER = "leadmarket";
const AUDIENCE = "leadmarket-privacy";
const CONFIRMATION_KIND = `${PRIVATE_KIND_PREFIX}confirmation`;
const ACCESS_KIND = `${PRIVATE_KIND_PREFIX}access-report`;

type Caller = { clientIp: string };

function key(): Uint8Array {
  return new TextEncoder().encode(env().APP_SECRET);
}

export function signPrivacyToken(requestId: string, kind: PrivacyKind, now = new Date()): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ kind })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(requestId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + VALID_HOURS * 3600)
    .sign(key());
}

const EXPIRED =
  "This confirmation link has expired (links work for 24 hours). Send a new request from the privacy requests page.";
const INVALID = "This confirmation link is not valid. Open the link from the mail exactly as it was sent.";

async function verifyPrivacyToken(token: string, now: Date): Promise<string> {
  try {
    const { payload } = await jwtVerify(token, key(), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: now,
    });
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
  if ((await takeToken({ bucket: `privacy-mail:${normalized}`, ...MAILS_PER_EMAIL })) !== null) return;
  await withTransaction(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO privacy_requests (kind, email, email_hash, email_masked) VALUES ($1, $2, $3, $4) RETURNING id`,
      [kind, normalized, emailHash(normalized), maskEmail(normalized)],
    );
    const token = await signPrivacyToken(rows[0].id, kind);
    const url = `${env().PUBLIC_BASE_URL}/privacy/requests/confirm?token=${encodeURIComponent(token)}`;
    await queueMail(privacyConfirmationMail(normalized, kind, url, VALID_HOURS), client, CONFIRMATION_KIND);
  });
}

const FIELDS: [label: string, column: string][] = [
  ["First name", "first_name"],
  ["Last name", "last_name"],
  ["Job title", "job_title"],
  ["Seniority", "seniority"],
  ["Department", "department"],
  ["Company", "company"],
  ["Company website", "company_website"],
  ["Company size", "company_size"],
  ["Company revenue", "company_revenue"],
  ["Industry", "industry"],
  ["Email", "email"],
  ["Phone", "phone"],
  ["City", "city"],
  ["State", "state"],
  ["Country", "country"],
  ["Profile URL", "profile_url"],
  ["Verified at", "verified_at"],
];

// Leads are stored with lower-cased emails (lib/leads/insert.ts), so equality on the normalised
// address is case-insensitive; naming the categories lets PostgreSQL use the (category, email) key.
const PERSON_LEADS = "category_id IN (SELECT id FROM categories) AND email = $1";

type LeadRow = Record<string, string> & { id: string; category_title: string };

async function heldLeads(client: PoolClient, email: string): Promise<HeldLead[]> {
  const { rows } = await client.query<LeadRow>(
    `SELECT l.id::text AS id, c.title AS category_title,
            ${FIELDS.map(([, column]) =>
              column === "verified_at"
                ? `to_char(l.verified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS verified_at`
                : `l.${column}::text AS ${column}`,
            ).join(", ")}
       FROM leads l JOIN categories c ON c.id = l.category_id
      WHERE l.category_id IN (SELECT id FROM categories) AND l.email = $1
      ORDER BY c.title`,
    [email],
  );
  const deliveries = await client.query<{ lead_id: string; paid_at: Date; package_type: string }>(
    `SELECT ol.lead_id::text AS lead_id, o.paid_at, o.package_type::text AS package_type
       FROM order_leads ol JOIN orders o ON o.id = ol.order_id
      WHERE ol.lead_id = ANY($1::bigint[]) AND o.paid_at IS NOT NULL
      ORDER BY o.paid_at`,
    [rows.map((row) => row.id)],
  );
  return rows.map((row) => ({
    categoryTitle: row.category_title,
    fields: FIELDS.map(([label, column]) => [label, row[column] ?? ""]),
    deliveries: deliveries.rows
      .filter((delivery) => delivery.lead_id === row.id)
      .map((delivery) => ({ paidAt: delivery.paid_at, packageType: delivery.package_type })),
  }));
}

/**
 * Erases a person: their leads in every category (and those leads' rows in sold orders, so later
 * downloads no longer hold them), category counts, their address wherever else it was kept (the
 * mail outbox, buyer emails, custom requests, other privacy requests); adds the hash to the
 * suppression list. A catalogue change: category counts move.
 */
async function erasePerson(client: PoolClient, email: string): Promise<void> {
  const hash = emailHash(email);
  const masked = maskEmail(email);
  const leads = await client.query<{ id: string; category_id: string; quarantined: boolean }>(
    `SELECT id::text AS id, category_id, quarantined_at IS NOT NULL AS quarantined
       FROM leads WHERE ${PERSON_LEADS} FOR UPDATE`,
    [email],
  );
  const ids = leads.rows.map((row) => row.id);
  await client.query("DELETE FROM order_leads WHERE lead_id = ANY($1::bigint[])", [ids]);
  await client.query("DELETE FROM leads WHERE id = ANY($1::bigint[])", [ids]);
  // Quarantined leads had already left their category's count.
  await client.query(
    `UPDATE categories c SET count = c.count - gone.n, updated_at = now()
       FROM (SELECT category_id, count(*)::int AS n FROM unnest($1::uuid[]) AS category_id GROUP BY category_id) gone
      WHERE c.id = gone.category_id`,
    [leads.rows.filter((row) => !row.quarantined).map((row) => row.category_id)],
  );
  await client.query("INSERT INTO suppressed_emails (email_hash) VALUES ($1) ON CONFLICT DO NOTHING", [hash]);
  // Any mail to or about the person keeps its subject only; one not yet sent never will be.
  await client.query(
    `UPDATE mail_outbox
        SET recipient = $2, mail = jsonb_build_object('to', $2::text, 'subject', mail->>'subject', 'text', ''),
            status = CASE WHEN status = 'pending' THEN 'erased' ELSE status END, last_error = NULL
      WHERE recipient = $1 OR strpos(lower(mail::text), $1) > 0`,
    [email, masked],
  );
  await client.query("UPDATE orders SET buyer_email = NULL WHERE lower(buyer_email) = $1", [email]);
  await client.query("UPDATE custom_requests SET email = $2 WHERE lower(email) = $1", [email, masked]);
  await client.query("UPDATE privacy_requests SET email = NULL WHERE email_hash = $1", [hash]);
}

type LockedRequest = { id: string; kind: PrivacyKind; email: string | null; state: string; expired: boolean };

/**
 * Runs the request a confirmation link names, once. A second click answers `already_completed`;
 * an expired link 410.
 */
export async function confirmPrivacyRequest(token: string, now = new Date()): Promise<PrivacyConfirmAnswer> {
  const requestId = await verifyPrivacyToken(token, now);
  const result = await withTransaction(async (client) => {
    const { rows } = await client.query<LockedRequest>(
      `SELECT id, kind, email, state, created_at < $2::timestamptz - make_interval(hours => $3) AS expired
         FROM privacy_requests WHERE id = $1 FOR UPDATE`,
      [requestId, now, VALID_HOURS],
    );
    const request = rows[0];
    if (!request) throw badRequest(INVALID);
    if (request.state === "completed") {
      return { answer: { success: true, kind: request.kind, state: "already_completed" } as const };
    }
    if (request.state === "expired" || request.expired || !request.email) {
      await client.query("UPDATE privacy_requests SET state = 'expired', email = NULL WHERE id = $1", [
        request.id,
      ]);
      return { expired: true as const };
    }
    if (request.kind === "erasure") {
      await erasePerson(client, request.email);
    } else {
      const leads = await heldLeads(client, request.email);
      await queueMail(accessReportMail(request.email, leads), client, ACCESS_KIND);
    }
    await client.query(
      "UPDATE privacy_requests SET state = 'completed', confirmed_at = $2, email = NULL WHERE id = $1",
      [request.id, now],
    );
    return { answer: { success: true, kind: request.kind, state: "completed" } as const };
  });
  if ("expired" in result) throw new AppError(410, EXPIRED);
  return result.answer;
}

/** Unconfirmed requests older than 24 hours expire and lose their clear-text email. */
export async function expirePrivacyRequests(now = new Date()): Promise<number> {
  const { rowCount } = await pool().query(
    `UPDATE privacy_requests SET state = 'expired', email = NULL
      WHERE state = 'pending' AND created_at < $1::timestamptz - make_interval(hours => $2)`,
    [now, VALID_HOURS],
  );
  return rowCount ?? 0;
}

/** The admin's list, newest first: masked emails only. */
export async function listPrivacyRequests(limit = 200): Promise<PrivacyRequestDto[]> {
  const { rows } = await pool().query<{
    id: string;
    kind: PrivacyKind;
    email_masked: string;
    state: string;
    expired: boolean;
    created_at: Date;
    confirmed_at: Date | null;
  }>(
    `SELECT id, kind, email_masked, state, created_at, confirmed_at,
            state = 'pending' AND created_at < now() - make_interval(hours => $2) AS expired
       FROM privacy_requests ORDER BY created_at DESC, id LIMIT $1`,
    [limit, VALID_HOURS],
  );
  return rows.map((row) => ({
    _id: row.id,
    kind: row.kind,
    maskedEmail: row.email_masked,
    state: row.expired ? "expired" : (row.state as PrivacyRequestDto["state"]),
    createdAt: row.created_at.toISOString(),
    confirmedAt: row.confirmed_at?.toISOString() ?? null,
  }));
}
