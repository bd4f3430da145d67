import "server-only";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/lib/env";

export type MailAttachment = { filename: string; content: Buffer; contentType?: string };
export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
};

let transporter: Transporter | undefined;

function transport(url: string): Transporter {
  // Pooled: the outbox worker sends mails back to back. Bounded waits: it holds the outbox row's
  // lock while a mail is in flight.
  transporter ??= nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 3,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  return transporter;
}

/**
 * Hands one mail to the SMTP server; throws when it was not accepted. Answers false when SMTP_URL
 * is unset: the log then names the mail (recipient and subject), never its body, which can hold a
 * download key or a sign-in link. `shownRecipient` is how the log names the recipient.
 */
export async function transmit(mail: Mail, shownRecipient = mail.to): Promise<boolean> {
  const { SMTP_URL, MAIL_FROM } = env();
  if (!SMTP_URL) {
    console.info(`[mail] SMTP_URL is not set; not sent. To: ${shownRecipient}, subject: ${mail.subject}`);
    return false;
  }
  await transport(SMTP_URL).sendMail({ from: MAIL_FROM, ...mail });
  return true;
}
