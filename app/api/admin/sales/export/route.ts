// GET /api/admin/sales/export - every sale as a streamed CSV download
import { fileResponse } from "@/lib/api/attachment";
import { route } from "@/lib/api/handler";
import { exportSales } from "@/lib/orders/admin";

export const GET = route({ admin: true }, async () => fileResponse(exportSales()));
