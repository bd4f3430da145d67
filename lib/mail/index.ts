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
  transporter ??= nodemailer.createTransport(url);
  return transporter;
}

/**
 * Sends a mail and reports whether it left. Never throws: callers (a sale, a custom request) must
 * not fail because mail did. Without SMTP_URL the mail is written to the log instead of dropped.
 */
export async function sendMail(mail: Mail): Promise<boolean> {
  const { SMTP_URL, MAIL_FROM } = env();
  if (!SMTP_URL) {
    console.info(
      `[mail] SMTP_URL is not set; not sent. To: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}`,
    );
    return false;
  }
  try {
    await transport(SMTP_URL).sendMail({ from: MAIL_FROM, ...mail });
    return true;
  } catch (error) {
    console.error(`[mail] sending "${mail.subject}" to ${mail.to} failed: ${(error as Error).message}`);
    return false;
  }
}
