// POST /api/admin/categories/{id}/leads - import a CSV of leads (multipart field "file")
import { route } from "@/lib/api/handler";
import { importLeadsFromRequest } from "@/lib/leads/import";
import { uuidParams } from "@/lib/schemas/common";

export const POST = route({ admin: true, params: uuidParams }, ({ params, request }) =>
  importLeadsFromRequest(params.id, request),
);
