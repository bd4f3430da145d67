import { route } from "@/lib/api/handler";
import { listLeadPreviews } from "@/lib/leads/previews";
import { pagination } from "@/lib/schemas/common";

// GET /api/leads - masked lead previews across all categories, paginated
export const GET = route({ query: pagination }, async ({ query }) => listLeadPreviews(query));
