// POST /api/admin/categories/{id}/leads - import a CSV of leads (multipart field "file")
import { route } from "@/lib/api/handler";
import { IMPORT_LIMITS, importLeadsUpload } from "@/lib/leads/import";
import { kickNotices } from "@/lib/privacy/notices";
import { uuidParams } from "@/lib/schemas/common";

export const POST = route({ admin: true, params: uuidParams, upload: true }, async ({ params, upload }) => {
  const report = await importLeadsUpload(params.id, await upload.read(IMPORT_LIMITS));
  // The import's UK leads wait for their notices: the first go now, not at the next tick.
  if (report.imported > 0) kickNotices();
  return report;
});
