import "server-only";
import { tooManyRequests } from "@/lib/errors";
import { withTransaction } from "@/lib/db";
import { queueRequestMails } from "@/lib/custom-requests/mail";
import type { CheckedFile } from "@/lib/custom-requests/files";
import { assertWithinRateLimit } from "@/lib/custom-requests/rate-limit";
import type { CustomRequest } from "@/lib/schemas/custom-request";

// Arbitrary namespace for this module's advisory locks (the two-int form keeps it apart from
// any single-bigint lock elsewhere).
const RATE_LIMIT_LOCK = 5_301;

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
 * address while one is being stored gets 429. Raw SQL on the shared pool: BYTEA takes Buffers as
 * they are, and the pool queues callers under load (up to its connection timeout).
 */
export async function storeCustomRequest(
  input: CustomRequest,
  files: CheckedFile[],
  clientIp: string,
  limit: number,
): Promise<StoredRequest> {
  return withTransaction(async (client) => {
    if (limit > 0) {
      const { rows: lock } = await client.query<{ locked: boolean }>(
        "SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS locked",
        [RATE_LIMIT_LOCK, clientIp],
      );
      if (!lock[0].locked) {
        throw tooManyRequests(
          "Another request from your address is being stored. Please try again in a moment.",
          5,
        );
      }
      await assertWithinRateLimit(client, clientIp, limit);
    }
    const { rows } = await client.query<{ id: string; created_at: Date }>(
      `INSERT INTO custom_requests (name, email, industry, role, platform, message, client_ip)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         RETURNING id, created_at`,
      [
        input.name,
        input.email,
        input.industry,
        input.role,
        input.platforms.join(", "),
        input.message,
        clientIp,
      ],
    );
    const { id, created_at: createdAt } = rows[0];
    for (const file of files) {
      await client.query(
        `INSERT INTO attachments (request_id, file_name, content_type, size, data) VALUES ($1, $2, $3, $4, $5)`,
        [id, file.fileName, file.contentType, file.size, file.data],
      );
    }
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
    await queueRequestMails(client, stored);
    return stored;
  });
}
