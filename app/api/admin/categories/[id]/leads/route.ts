// POST /api/admin/categories/{id}/leads - import a CSV of leads (multipart field "file")
import { route } from "@/lib/api/handler";
import { IMPORT_LIMITS, importLeadsUpload } from "@/lib/leads/import";
import { uuidParams } from "@/lib/schemas/common";

export const POST = route({ admin: true, params: uuidParams, upload: true }, async ({ params, upload }) =>
  importLeadsUpload(params.id, await upload.read(IMPORT_LIMITS)),
);
