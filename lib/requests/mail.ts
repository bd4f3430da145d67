import "server-only";
import { env } from "@/lib/env";
import { sendMail, type Mail } from "@/lib/mail";
import type { StoredRequest } from "@/lib/requests/store";
import { INDUSTRIES, PLATFORMS, ROLES } from "@/lib/schemas/custom-request";
import { getNotificationRecipient } from "@/lib/settings";

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
 * The requester's confirmation. It repeats only the choices, never the free-text message, so the
 * public form cannot be used to relay arbitrary text to someone else's address.
 */
export function confirmationMail(request: StoredRequest): Mail {
  return {
    to: request.email,
    subject: "We've received your custom lead request",
    text: [
      `Hi ${request.name},`,
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

/** Sends both mails; the notification only when the admin has notifications on. Never throws. */
export async function sendRequestMails(request: StoredRequest, recipient: string | null): Promise<void> {
  await Promise.all([
    recipient ? sendMail(notificationMail(request, recipient)) : Promise.resolve(false),
    sendMail(confirmationMail(request)),
  ]);
}

/**
 * Mails about a stored request without holding up the answer: the request is already safe in
 * the database, so a slow or failing SMTP server only costs a log line (sendMail logs failures,
 * and writes the mail to the log when SMTP_URL is unset).
 */
export function mailAboutRequestInBackground(request: StoredRequest): void {
  void (async () => {
    const recipient = await getNotificationRecipient();
    await sendRequestMails(request, recipient);
  })().catch((error: unknown) => {
    console.error(`[custom-request] mails for request ${request.id} failed: ${(error as Error).message}`);
  });
}
