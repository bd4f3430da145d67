import "server-only";
import { env } from "@/lib/env";
import type { Tx } from "@/lib/db";
import type { Mail } from "@/lib/mail";
import { MAILS_PER_ADDRESS } from "@/lib/limits/throttle";
import { countRecentMails, queueMail } from "@/lib/mail/outbox";
import { INDUSTRIES, PLATFORMS, ROLES } from "@/lib/schemas/custom-request";
import { getNotificationRecipient } from "@/lib/settings";

/** A request as stored, with what its mails list of its attachments. */
export type StoredRequest = {
  id: string;
  createdAt: Date;
  name: string;
  email: string;
  industry: string;
  role: string;
  platforms: string[];
  message: string;
  attachments: { fileName: string; contentType: string; size: number }[];
};

const label = (list: readonly { value: string; label: string }[], value: string) =>
  list.find((item) => item.value === value)?.label ?? value;

const platformLabels = (request: StoredRequest) =>
  request.platforms.map((platform) => label(PLATFORMS, platform)).join(", ") || "None chosen";

const kilobytes = (size: number) => `${(size / 1024).toFixed(1)} KB`;

/** The admin's notification: the whole request and the list of its attachments. */
export function notificationMail(request: StoredRequest, to: string): Mail {
  const attachments = request.attachments.length
    ? request.attachments.map((file) => `  - ${file.fileName} (${kilobytes(file.size)})`).join("\n")
    : "  none";
  return {
    to,
    subject: `New custom lead request from ${request.name}`,
    text: [
      "A new custom lead request has arrived.",
      "",
      `Name: ${request.name}`,
      `Email: ${request.email}`,
      `Platforms: ${platformLabels(request)}`,
      `Industry: ${label(INDUSTRIES, request.industry)}`,
      `Role: ${label(ROLES, request.role)}`,
      `Message: ${request.message || "(none)"}`,
      `Attachments (${request.attachments.length}):`,
      attachments,
      "",
      `Received: ${request.createdAt.toISOString()}`,
      `Request id: ${request.id}`,
      "",
      `Review it and download the attachments in the admin dashboard (Requests tab): ${env().PUBLIC_BASE_URL}/admin/dashboard`,
      "The requester was promised a reply within 24 hours.",
    ].join("\n"),
  };
}

/**
 * The requester's confirmation. The address it goes to was never verified, so it carries nothing
 * the requester typed (not their name, not their message): only our own text and the choices
 * picked from our lists. The public form cannot relay anyone's words to someone else's inbox.
 */
export function confirmationMail(request: StoredRequest): Mail {
  return {
    to: request.email,
    subject: "We've received your custom lead request",
    text: [
      "Hello,",
      "",
      "Thank you for your custom lead request. We've received it and will reply within 24 hours.",
      "",
      "Your request:",
      `  Platforms: ${platformLabels(request)}`,
      `  Industry: ${label(INDUSTRIES, request.industry)}`,
      `  Role: ${label(ROLES, request.role)}`,
      `  Attachments: ${request.attachments.length} file(s)`,
      "",
      "If you did not send this request, you can ignore this email.",
      "",
      "The LeadMarket team",
      env().PUBLIC_BASE_URL,
    ].join("\n"),
  };
}

export const CONFIRMATION_KIND = "request-confirmation";
// Namespace of the per-recipient lock (see lib/custom-requests/store.ts for another).
const CONFIRMATION_LOCK = 5_303;

/**
 * Queues the admin's notification (when notifications are on) and the requester's confirmation
 * in the transaction that stores the request. The confirmation is skipped past the daily cap, and
 * when another transaction is counting this recipient's confirmations right now: waiting for it
 * would hold a database connection, and the other one confirms the same address anyway.
 */
export async function queueRequestMails(tx: Tx, request: StoredRequest): Promise<void> {
  const recipient = await getNotificationRecipient(tx);
  if (recipient) await queueMail(notificationMail(request, recipient), tx, "request-notification");
  const to = request.email.toLowerCase();
  const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`
    SELECT pg_try_advisory_xact_lock(${CONFIRMATION_LOCK}::int, hashtext(${to})) AS locked`;
  if (!locked) return;
  if ((await countRecentMails(CONFIRMATION_KIND, to, tx)) >= MAILS_PER_ADDRESS.max) {
    console.info(
      `[custom-request] confirmation for request ${request.id} skipped: daily cap for its address`,
    );
    return;
  }
  await queueMail(confirmationMail(request), tx, CONFIRMATION_KIND);
}
