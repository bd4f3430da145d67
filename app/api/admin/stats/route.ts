// GET /api/admin/stats - dashboard figures (docs/product-rules.md)
import { route } from "@/lib/api/handler";
import { getStats } from "@/lib/dashboard/stats";

export const GET = route({ admin: true }, () => getStats());
