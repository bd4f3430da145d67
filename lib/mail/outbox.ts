import "server-only";
import { afterCommit, db, transaction, type Tx } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { transmit, type Mail } from "@/lib/mail";
import { maskEmail } from "@/lib/mail/address";

// The mail outbox. A mail is a row written in the same transaction as what caused it (a sale, a
// request), so it exists exactly when its cause does, and an SMTP outage only delays it. The
// worker claims due rows with FOR UPDATE SKIP LOCKED, so with several app instances each row is
// sent by one of them, once; a failed attempt is retried with a growing delay for up to 24 hours,
// unless the server refused the recipient for good. A privacy notice's row tells its lead what
// became of it (prisma/derived/60-privacy-notices.sql).

const GIVE_UP_AFTER_HOURS = 24;
/** Mail kinds starting with this are logged with a masked recipient. */
export const PRIVATE_KIND_PREFIX = "privacy-";
const FIRST_RETRY_SECONDS = 5;
const MAX_RETRY_SECONDS = 3600;
const POLL_MS = 2000;
// Mails in flight at once per process, each holding one pooled database connection meanwhile.
const SENDERS = 3;

type StoredMail = Omit<Mail, "attachments"> & {
  attachments?: { filename: string; content: string; contentType?: string }[];
};

function encode(mail: Mail): StoredMail {
  return {
    ...mail,
    attachments: mail.attachments?.map((file) => ({ ...file, content: file.content.toString("base64") })),
  };
}

function decode(stored: StoredMail): Mail {
  return {
    ...stored,
    attachments: stored.attachments?.map((file) => ({
      ...file,
      content: Buffer.from(file.content, "base64"),
    })),
  };
}

/**
 * Stores a mail for delivery; answers its id. Inside a transaction pass its `tx` so the mail is
 * kept or dropped with the rest; without one it is stored at once. `kind` names the mail for
 * per-recipient caps (see countRecentMails) and the log.
 */
export async function queueMail(mail: Mail, tx?: Tx, kind = "notification"): Promise<bigint> {
  const { id } = await (tx ?? db()).mailOutbox.create({ data: outboxRow(mail, kind), select: { id: true } });
  deliverSoon(tx);
  return id;
}

/**
 * queueMail() of several mails of one kind in two statements, whatever their number (a pass that
 * mails many buyers, a claim of privacy notices); answers their ids in the mails' order. The ids
 * are drawn from the table's sequence first, since a multi-row insert does not promise to return
 * its rows in order.
 */
export async function queueMails(mails: Mail[], tx: Tx, kind: string): Promise<bigint[]> {
  if (mails.length === 0) return [];
  const drawn = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT nextval(pg_get_serial_sequence('mail_outbox', 'id')) AS id FROM generate_series(1, ${mails.length}::int)`;
  const ids = drawn.map((row) => row.id);
  await tx.mailOutbox.createMany({
    data: mails.map((mail, index) => ({ id: ids[index], ...outboxRow(mail, kind) })),
  });
  deliverSoon(tx);
  return ids;
}

function outboxRow(mail: Mail, kind: string): Prisma.MailOutboxCreateManyInput {
  return { kind, recipient: mail.to.toLowerCase(), mail: encode(mail) as Prisma.InputJsonObject };
}

/**
 * Sent as soon as the rows are visible: after the caller's commit, or at once without a
 * transaction. The poll (started here too, for processes that never called startOutboxWorker) retries.
 */
function deliverSoon(tx?: Tx): void {
  startOutboxWorker();
  if (!tx || !afterCommit(tx, () => scheduleDelivery(0))) scheduleDelivery(0);
}

/** How many mails of this kind were queued for this recipient in the last 24 hours. */
export function countRecentMails(kind: string, recipient: string, tx: Tx = db()): Promise<number> {
  return tx.mailOutbox.count({
    where: { kind, recipient: recipient.toLowerCase(), createdAt: { gt: new Date(Date.now() - 86_400_000) } },
  });
}

/** The SMTP server refused the recipient for good (a 5xx reply to RCPT TO). */
function recipientRefused(error: unknown): boolean {
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  return (
    code === "EENVELOPE" && typeof responseCode === "number" && responseCode >= 500 && responseCode < 600
  );
}

type DueMail = { id: bigint; kind: string; mail: StoredMail; attempts: number; expired: boolean };

// A mail is held (its row locked) while it is handed to the SMTP server, whose own timeouts end
// any attempt well before this.
const SEND_TIMEOUT_MS = 5 * 60_000;

/** Sends the next due mail, if any; answers whether there was one. */
async function deliverNext(): Promise<boolean> {
  return transaction(async (tx) => {
    const [row] = await tx.$queryRaw<DueMail[]>`
      SELECT id, kind, mail, attempts,
             created_at < now() - make_interval(hours => ${GIVE_UP_AFTER_HOURS}::int) AS expired
        FROM mail_outbox
       WHERE status = 'pending' AND next_attempt_at <= now()
       ORDER BY next_attempt_at, id
       LIMIT 1
       FOR UPDATE SKIP LOCKED`;
    if (!row) return false;
    const mail = decode(row.mail);
    // A privacy request's address may belong to someone about to be erased: never logged in clear.
    const shown = row.kind.startsWith(PRIVATE_KIND_PREFIX) ? maskEmail(mail.to) : mail.to;
    try {
      const sent = await transmit(mail, shown);
      await tx.mailOutbox.update({
        where: { id: row.id },
        data: {
          status: sent ? "sent" : "logged",
          attempts: { increment: 1 },
          sentAt: new Date(),
          lastError: null,
        },
        select: { id: true },
      });
    } catch (error) {
      const message = (error as Error).message;
      console.error(`[mail] sending "${mail.subject}" to ${shown} failed: ${message}`);
      // A recipient refused with a 5xx is the answer (the address takes no mail), not an outage:
      // never retried.
      if (recipientRefused(error)) {
        await tx.mailOutbox.update({
          where: { id: row.id },
          data: { attempts: { increment: 1 }, lastError: message.slice(0, 1000), status: "refused" },
          select: { id: true },
        });
        return true;
      }
      if (row.expired) {
        console.error(
          `[mail] gave up on ${row.kind} mail ${row.id} to ${shown} after ${GIVE_UP_AFTER_HOURS} h`,
        );
      }
      const delaySeconds = Math.min(FIRST_RETRY_SECONDS * 2 ** row.attempts, MAX_RETRY_SECONDS);
      await tx.mailOutbox.update({
        where: { id: row.id },
        data: {
          attempts: { increment: 1 },
          lastError: message.slice(0, 1000),
          status: row.expired ? "failed" : "pending",
          nextAttemptAt: new Date(Date.now() + delaySeconds * 1000),
        },
        select: { id: true },
      });
    }
    return true;
  }, SEND_TIMEOUT_MS);
}

let running = false;
let again = false;
let outageReported = false;
let timer: NodeJS.Timeout | undefined;

/** Delivers every due mail; overlapping calls fold into one more pass. */
async function deliverDueMails(): Promise<void> {
  if (running) {
    again = true;
    return;
  }
  running = true;
  try {
    const drain = async () => {
      while (await deliverNext());
    };
    do {
      again = false;
      await Promise.all(Array.from({ length: SENDERS }, drain));
    } while (again);
    outageReported = false;
  } catch (error) {
    // The database may be down: the rows wait, and the next poll tries again. Said once per
    // outage, not at every poll.
    if (!outageReported) console.error(`[mail] outbox pass failed: ${(error as Error).message}`);
    outageReported = true;
  } finally {
    running = false;
  }
}

function scheduleDelivery(delayMs: number): void {
  setTimeout(() => void deliverDueMails(), delayMs).unref();
}

/** Starts polling the outbox (once per process); the server calls it at start, for mails left over. */
export function startOutboxWorker(): void {
  if (timer) return;
  timer = setInterval(() => void deliverDueMails(), POLL_MS);
  timer.unref();
  scheduleDelivery(0);
}
