import "server-only";
import { tooManyRequests } from "@/lib/errors";
import { transaction } from "@/lib/db";
import { queueRequestMails } from "@/lib/custom-requests/mail";
import { attachStagedFiles, type CheckedFile } from "@/lib/custom-requests/staged-files";
import { assertWithinRateLimit } from "@/lib/custom-requests/rate-limit";
import type { CustomRequest } from "@/lib/schemas/custom-request";

// Arbitrary namespace for this module's advisory locks (the two-int form keeps it apart from
// any single-bigint lock elsewhere).
const RATE_LIMIT_LOCK = 5_301;
// Up to the upload limit in attachments is written in one transaction.
const ATTACHMENTS_TIMEOUT_MS = 60_000;

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

/**
 * Stores a request, its files and its mails in one transaction: either everything is kept or
 * nothing. With a limit, the address's advisory lock serialises its submissions so the count
 * cannot be outrun; it is only tried, never waited for (a waiting transaction would hold a
 * database connection for as long as another upload takes): a second submission from the same
 * address while one is being stored gets 429.
 */
export async function storeCustomRequest(
  input: CustomRequest,
  files: CheckedFile[],
  clientIp: string,
  limit: number,
): Promise<StoredRequest> {
  return transaction(async (tx) => {
    if (limit > 0) {
      const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`
        SELECT pg_try_advisory_xact_lock(${RATE_LIMIT_LOCK}::int, hashtext(${clientIp})) AS locked`;
      if (!locked) {
        throw tooManyRequests(
          "Another request from your address is being stored. Please try again in a moment.",
          5,
        );
      }
      await assertWithinRateLimit(clientIp, limit, 0, tx);
    }
    const { id, createdAt } = await tx.customRequest.create({
      data: {
        name: input.name,
        email: input.email,
        industry: input.industry,
        role: input.role,
        platform: input.platforms.join(", "),
        message: input.message,
        clientIp,
      },
      select: { id: true, createdAt: true },
    });
    await attachStagedFiles(tx, id, files);
    const stored: StoredRequest = {
      id,
      createdAt,
      name: input.name,
      email: input.email,
      industry: input.industry,
      role: input.role,
      platforms: input.platforms,
      message: input.message,
      attachments: files.map(({ fileName, contentType, size }) => ({ fileName, contentType, size })),
    };
    await queueRequestMails(tx, stored);
    return stored;
  }, ATTACHMENTS_TIMEOUT_MS);
}
