// PATCH /api/admin/requests/{id} - set a custom request's status (in_progress or completed)
import { route } from "@/lib/api/handler";
import { setRequestStatus } from "@/lib/custom-requests/admin";
import { requestStatusSchema } from "@/lib/schemas/admin";
import { uuidParams } from "@/lib/schemas/common";

export const PATCH = route(
  { admin: true, params: uuidParams, body: requestStatusSchema },
  ({ params, body }) => setRequestStatus(params.id, body.status),
);
