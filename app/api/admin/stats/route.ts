// GET /api/admin/stats - dashboard figures (decisions.md section 6)
import { route } from "@/lib/api/handler";
import { getStats } from "@/lib/dashboard/stats";

export const GET = route({ admin: true }, () => getStats());
