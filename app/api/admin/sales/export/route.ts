// GET /api/admin/sales/export - every sale as a streamed CSV download
import { route } from "@/lib/api/handler";
import { exportSales } from "@/lib/orders/admin";

export const GET = route({ admin: true }, async () => exportSales());
