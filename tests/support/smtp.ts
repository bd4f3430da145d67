// A real SMTP server on loopback that keeps every mail it receives, parsed.
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export type SmtpCatcher = {
  url: string;
  messages: ParsedMail[];
  /** Resolves with the first message (received or to come) that matches. */
  waitFor: (match: (mail: ParsedMail) => boolean, timeoutMs?: number) => Promise<ParsedMail>;
  close: () => Promise<void>;
};

/**
 * `port` 0 picks a free one; a fixed port lets a test stop the server and start it again. Waiting
 * for a mail allows 15 s: the outbox sends from a background pass, slow on a busy machine.
 */
export async function startSmtpCatcher(
  port = 0,
  /** The SMTP reply refusing a recipient (e.g. 550 for a mailbox that does not exist), or null. */
  refuse: (address: string) => { code: number; message: string } | null = () => null,
): Promise<SmtpCatcher> {
  const messages: ParsedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // The app's mail transport is pooled and keeps its connections open; close them at once
    // (the default waits 30 s).
    closeTimeout: 100,
    onRcptTo(address, _session, callback) {
      const refusal = refuse(address.address);
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          waiters.splice(0).forEach((wake) => wake());
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.server.address() as AddressInfo).port;
  const waitFor: SmtpCatcher["waitFor"] = (match, timeoutMs = 15_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("No matching mail arrived in time")), timeoutMs);
      const check = () => {
        const found = messages.find(match);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        } else {
          waiters.push(check);
        }
      };
      check();
    });
  return {
    url: `smtp://127.0.0.1:${bound}`,
    messages,
    waitFor,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
