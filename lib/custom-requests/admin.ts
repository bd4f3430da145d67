import "server-only";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { csvResponse, dateStamp } from "@/lib/api/csv-response";
import type { ListQuery, RequestDto, RequestStatus } from "@/lib/schemas/admin";

// The admin's side of custom requests: listing, status changes, exports and attachment downloads.
const requestSelect = {
  id: true,
  name: true,
  email: true,
  industry: true,
  role: true,
  platform: true,
  message: true,
  status: true,
  createdAt: true,
  attachments: {
    select: { id: true, fileName: true, contentType: true, size: true },
    orderBy: { createdAt: "asc" as const },
  },
} as const;

type RequestRow = {
  id: string;
  name: string;
  email: string;
  industry: string;
  role: string;
  platform: string;
  message: string;
  status: RequestStatus;
  createdAt: Date;
  attachments: { id: string; fileName: string; contentType: string; size: number }[];
};

function toDto(row: RequestRow): RequestDto {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    industry: row.industry,
    role: row.role,
    platform: row.platform,
    message: row.message,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    attachments: row.attachments.map((file) => ({
      _id: file.id,
      fileName: file.fileName,
      contentType: file.contentType,
      size: file.size,
    })),
  };
}

export async function listRequests(query: ListQuery): Promise<{ requests: RequestDto[]; total: number }> {
  const [rows, total] = await Promise.all([
    db().customRequest.findMany({
      select: requestSelect,
      orderBy: [{ createdAt: query.order }, { id: query.order }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
    db().customRequest.count(),
  ]);
  return { requests: rows.map(toDto), total };
}

export async function setRequestStatus(
  id: string,
  status: Exclude<RequestStatus, "pending">,
): Promise<RequestDto> {
  const exists = await db().customRequest.findUnique({ where: { id }, select: { id: true } });
  if (!exists) throw notFound("Request not found");
  return toDto(await db().customRequest.update({ where: { id }, data: { status }, select: requestSelect }));
}

// Only these types are sent with their own content type; anything else goes out as bytes.
const KNOWN_TYPES = new Set([
  "application/pdf",
  "application/msword",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "text/csv",
  "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
]);

/** A file name safe in a header and on any file system; the original (UTF-8) rides in filename*. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^\w.\- ]+/g, "_")
    .replace(/^[.\s]+/, "")
    .trim()
    .slice(-150);
  return cleaned || "attachment";
}

export async function attachmentResponse(requestId: string, attachmentId: string): Promise<Response> {
  const file = await db().attachment.findFirst({
    where: { id: attachmentId, requestId },
    select: { fileName: true, contentType: true, data: true },
  });
  if (!file) throw notFound("Attachment not found");
  const ascii = safeFileName(file.fileName);
  const utf8 = encodeURIComponent(file.fileName.split(/[\\/]/).pop() || ascii);
  return new Response(new Uint8Array(file.data), {
    headers: {
      "content-type": KNOWN_TYPES.has(file.contentType) ? file.contentType : "application/octet-stream",
      "content-disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`,
      "content-length": String(file.data.length),
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
      // Even if opened directly, the file gets no scripting and no origin.
      "content-security-policy": "sandbox; default-src 'none'",
    },
  });
}

const EXPORT_PAGE = 1000;

export function exportRequests(): Response {
  return csvResponse(
    `custom-requests-${dateStamp()}.csv`,
    ["Date", "Name", "Email", "Industry", "Role", "Platform", "Message", "Status", "Attachments"],
    async function* () {
      let cursor: string | undefined;
      for (;;) {
        const rows = await db().customRequest.findMany({
          select: requestSelect,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: EXPORT_PAGE,
          ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
        });
        if (rows.length === 0) return;
        yield rows.map((row) => [
          row.createdAt,
          row.name,
          row.email,
          row.industry,
          row.role,
          row.platform,
          row.message,
          row.status,
          row.attachments.map((file) => file.fileName).join("; "),
        ]);
        if (rows.length < EXPORT_PAGE) return;
        cursor = rows[rows.length - 1].id;
      }
    },
  );
}
