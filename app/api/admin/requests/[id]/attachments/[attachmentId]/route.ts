// GET /api/admin/requests/{id}/attachments/{attachmentId} - download a request's attached file
import { route } from "@/lib/api/handler";
import { attachmentResponse } from "@/lib/custom-requests/admin";
import { attachmentParams } from "@/lib/schemas/admin";

export const GET = route({ admin: true, params: attachmentParams }, ({ params }) =>
  attachmentResponse(params.id, params.attachmentId),
);
