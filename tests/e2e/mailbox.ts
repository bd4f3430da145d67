// The mails the e2e app sent, read from the SMTP catcher's HTTP mailbox (tests/e2e/global-setup.ts).
import { expect } from "@playwright/test";

export type Mail = { to: string[]; subject: string; text: string };

/** Waits (up to 20 s) for a mail to `address` with `subject`, and answers it. */
export async function mailTo(address: string, subject: string): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await fetch(process.env.E2E_MAILBOX_URL!)).json()) as Mail[];
        found = mails.find((mail) => mail.to.includes(address) && mail.subject === subject);
        return found !== undefined;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}
