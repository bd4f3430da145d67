import "server-only";
import { createHash } from "node:crypto";
import { db, pool, type Tx } from "@/lib/db";
import { AppError, FileTooLargeError, notFound } from "@/lib/errors";
import { runOffThread, tooComplexFile } from "@/lib/off-thread";
import type { Caller } from "@/lib/limits/caller";
import { CLOSED_STATUSES } from "@/lib/payments/status";
import { assertWithinLimit } from "@/lib/limits/throttle";
import { consumeFile, fileBlocks, type FormBody, type UploadLimits } from "@/lib/limits/uploads";
import type { SuppressionListAnswer } from "@/lib/schemas/suppression";
import type { ListEntries } from "@/lib/suppression/entries";

// Exclusion lists (docs/product-rules.md, "Exclusion lists"): read from an upload, kept as email
// hashes and domains only, usable only from the address that uploaded them, and deleted by the
// upkeep once nothing needs them: 24 hours after upload, or later while an order created with the
// list may still be paid (two days after its creation) or claim replacements (30 days after payment).

export const MAX_LIST_BYTES = 10 * 1024 * 1024;
const LIST_HOURS = 24;
/** Lists one address may upload in an hour. */
const LIST_UPLOADS = { max: 20, windowSeconds: 3600 };
const HOUR_MS = 3600 * 1000;

const FILE_TOO_LARGE = `The file is too large: at most ${MAX_LIST_BYTES / 1024 / 1024} MB`;
const fileTooLarge = () => new FileTooLargeError(FILE_TOO_LARGE, { file: FILE_TOO_LARGE });

export const LIST_LIMITS: UploadLimits = {
  pool: "lists",
  maxBytes: MAX_LIST_BYTES + 64 * 1024,
  maxFileBytes: MAX_LIST_BYTES,
  files: 1,
  deadlineSeconds: 5 * 60,
  tooLarge: fileTooLarge,
  fileTooLarge,
  unsupported: () => new AppError(415, 'Upload the list as multipart/form-data in the field "file"'),
};

export const NO_LIST =
  "Your exclusion list was not found: a list works only from the connection that uploaded it, for 24 hours. Please upload it again.";

/** Who may use a list: the uploader's client address, kept only as a hash. */
const ownerOf = (caller: Caller) =>
  createHash("sha256").update(`suppression-list:${caller.clientIp}`).digest("hex");

/** Reads, checks and stores an uploaded list; 400 for a file that holds no usable list. */
export async function createSuppressionList(body: FormBody, caller: Caller): Promise<SuppressionListAnswer> {
  await assertWithinLimit(
    { bucket: `suppression-upload:${caller.clientIp}`, ...LIST_UPLOADS },
    "Too many list uploads from your address. Please try again later.",
  );
  const blocks = await consumeFile(body, "file", "Choose a CSV, XLSX or text file", fileBlocks);
  // Read on a worker thread, within its deadline (lib/suppression/list-worker.ts).
  const { hashes, domains, counts } = await runOffThread<Buffer[], ListEntries>(
    "lib/suppression/list-worker.ts",
    blocks,
    () => tooComplexFile("Save the list as .csv, or keep only the columns you need."),
  );
  const expiresAt = new Date(Date.now() + LIST_HOURS * HOUR_MS);
  // The digests as hex (decoded in SQL): one row holds the whole list.
  const { rows } = await pool().query<{ id: string }>(
    `INSERT INTO suppression_lists
       (owner, expires_at, entries, emails, domains, hashes, ignored, email_keys, domain_keys)
     VALUES ($1, $2, $3, $4, $5, $6, $7,
             ARRAY(SELECT decode(hash, 'hex') FROM unnest($8::text[]) AS hash), $9::text[])
     RETURNING id`,
    [
      ownerOf(caller),
      expiresAt,
      counts.entries,
      counts.emails,
      counts.domains,
      counts.hashes,
      counts.ignored,
      hashes,
      domains,
    ],
  );
  return { success: true, suppressionListId: rows[0].id, ...counts, expiresAt: expiresAt.toISOString() };
}

/** A list as filters and counts take it: which kinds of entries it holds. */
export type OwnedList = { id: string; emails: boolean; domains: boolean };

const kinds = (list: { id: string; emails: number; hashes: number; domains: number }): OwnedList => ({
  id: list.id,
  emails: list.emails + list.hashes > 0,
  domains: list.domains > 0,
});

/** The caller's unexpired list, or 404 (another address's list is as unknown as a missing one). */
export async function ownedList(
  id: string,
  caller: Caller,
  tx: Tx | ReturnType<typeof db> = db(),
): Promise<OwnedList> {
  const list = await tx.suppressionList.findFirst({
    where: { id, owner: ownerOf(caller), expiresAt: { gt: new Date() } },
    select: { id: true, emails: true, hashes: true, domains: true },
  });
  if (!list) throw notFound(NO_LIST);
  return kinds(list);
}

/**
 * Keeps the list at least until `until`: an order is being created with it (then only the
 * caller's unexpired list, else 404) or was paid with it. Once kept, the upkeep cannot take it
 * from under the order.
 */
export async function keepList(
  tx: Tx | ReturnType<typeof db>,
  id: string,
  until: Date,
  creator?: Caller,
): Promise<void> {
  const kept = creator
    ? await tx.$executeRaw`UPDATE suppression_lists SET expires_at = greatest(expires_at, ${until})
        WHERE id = ${id}::uuid AND owner = ${ownerOf(creator)} AND expires_at > now()`
    : await tx.$executeRaw`UPDATE suppression_lists SET expires_at = greatest(expires_at, ${until})
        WHERE id = ${id}::uuid`;
  if (creator && kept === 0) throw notFound(NO_LIST);
}

/**
 * An order's list as allocation filters take it (FreshLeadFilter's `notListed`), or null when it
 * has none or it was deleted; with `keepUntil`, kept at least that long (a paid order's window).
 */
export async function orderList(tx: Tx, id: string | null, keepUntil?: Date): Promise<OwnedList | null> {
  if (!id) return null;
  if (keepUntil) await keepList(tx, id, keepUntil);
  const list = await tx.suppressionList.findUnique({
    where: { id },
    select: { id: true, emails: true, hashes: true, domains: true },
  });
  return list && kinds(list);
}

const EXPIRED_BATCH = 100;

/**
 * The upkeep: deletes lists past their expiry, a batch at a time, claimed with SKIP LOCKED so
 * instances share the work and a list being kept longer right now is left for the next tick.
 * A list an order may still allocate with is kept past its expiry: the order is open and unpaid
 * (a partial payment can be topped up days later), or its claim has rows held for the admin's
 * review (replacing them must skip the same contacts). Answers how many were deleted.
 */
export async function deleteExpiredLists(now = new Date()): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await db().$executeRaw`DELETE FROM suppression_lists WHERE id IN (
      SELECT l.id FROM suppression_lists l
       WHERE l.expires_at <= ${now}
         AND NOT EXISTS (
           SELECT 1 FROM orders o
            WHERE o.suppression_list_id = l.id
              AND ((o.paid_at IS NULL AND lower(o.status) <> ALL(${[...CLOSED_STATUSES]}::text[]))
                   OR EXISTS (SELECT 1 FROM replacement_reports rr WHERE rr.order_id = o.id AND rr.held)))
       ORDER BY l.expires_at LIMIT ${EXPIRED_BATCH} FOR UPDATE OF l SKIP LOCKED)`;
    deleted += batch;
    if (batch < EXPIRED_BATCH) return deleted;
  }
}
