import "server-only";
import { transaction } from "@/lib/db";
import { queueRequestMails, type StoredRequest } from "@/lib/custom-requests/mail";
import { attachStagedFiles, awaitAssemblyRoom, type CheckedFile } from "@/lib/custom-requests/staged-files";
import { countCustomRequest } from "@/lib/custom-requests/rate-limit";
import type { CustomRequest } from "@/lib/schemas/custom-request";

// Up to the upload limit in attachments is written in one transaction.
const ATTACHMENTS_TIMEOUT_MS = 60_000;

/**
 * Stores a request, its files and its mails in one transaction: either everything is kept or
 * nothing. With a limit, the request is counted last (lib/custom-requests/rate-limit.ts): below the
 * limit every concurrent submission is stored, past it the whole transaction rolls back with 429.
 */
export async function storeCustomRequest(
  input: CustomRequest,
  files: CheckedFile[],
  clientIp: string,
  limit: number,
): Promise<StoredRequest> {
  await awaitAssemblyRoom(files);
  return transaction(async (tx) => {
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
    await countCustomRequest(tx, clientIp, limit);
    return stored;
  }, ATTACHMENTS_TIMEOUT_MS);
}
