// POST /api/admin/categories/{id}/recheck - queue a re-check of the category's leads now (the background workers run it)
import { route } from "@/lib/api/handler";
import { recheckNow } from "@/lib/leads/recheck";
import { uuidParams } from "@/lib/schemas/common";

export const POST = route({ admin: true, params: uuidParams }, async ({ params }) =>
  Response.json(await recheckNow(params.id), { status: 202 }),
);
