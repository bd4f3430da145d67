import "server-only";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { CONTENT_TYPES, CSV_TYPE, type OutgoingFile } from "@/lib/content-types";
import { csvTable, datedCsvName } from "@/lib/csv";
import type { Prisma } from "@/lib/generated/prisma/client";
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

type RequestRow = Prisma.CustomRequestGetPayload<{ select: typeof requestSelect }>;

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

// Only the accepted types are sent with their own content type; anything else goes out as bytes.
const KNOWN_TYPES = new Set<string>(Object.values(CONTENT_TYPES));

export async function findAttachment(requestId: string, attachmentId: string): Promise<OutgoingFile> {
  const file = await db().attachment.findFirst({
    where: { id: attachmentId, requestId },
    select: { fileName: true, contentType: true, data: true },
  });
  if (!file) throw notFound("Attachment not found");
  const contentType = KNOWN_TYPES.has(file.contentType) ? file.contentType : "application/octet-stream";
  return { fileName: file.fileName, contentType, body: new Uint8Array(file.data) };
}

export function exportRequests(): OutgoingFile {
  const body = csvTable({
    header: ["Date", "Name", "Email", "Industry", "Role", "Platform", "Message", "Status", "Attachments"],
    pageSize: 1000,
    readPage: (page) =>
      db().customRequest.findMany({
        select: requestSelect,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        ...page,
      }),
    cells: (row) => [
      row.createdAt,
      row.name,
      row.email,
      row.industry,
      row.role,
      row.platform,
      row.message,
      row.status,
      row.attachments.map((file) => file.fileName).join("; "),
    ],
  });
  return { fileName: datedCsvName("custom-requests"), contentType: CSV_TYPE, body };
}
