// GET /api/admin/requests/{id}/attachments/{attachmentId} - download a request's attached file
import { fileResponse } from "@/lib/api/attachment";
import { route } from "@/lib/api/handler";
import { findAttachment } from "@/lib/custom-requests/admin";
import { attachmentParams } from "@/lib/schemas/admin";

export const GET = route({ admin: true, params: attachmentParams }, async ({ params }) =>
  fileResponse(await findAttachment(params.id, params.attachmentId)),
);
