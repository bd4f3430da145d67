// GET /api/admin/requests/export - every custom request as a streamed CSV download
import { fileResponse } from "@/lib/api/attachment";
import { route } from "@/lib/api/handler";
import { exportRequests } from "@/lib/custom-requests/admin";

export const GET = route({ admin: true }, async () => fileResponse(exportRequests()));
