// GET /api/admin/requests - a page of custom requests by date (X-Total-Count carries the total)
import { route } from "@/lib/api/handler";
import { listRequests } from "@/lib/custom-requests/admin";
import { listQuery } from "@/lib/schemas/admin";

export const GET = route({ admin: true, query: listQuery }, async ({ query }) => {
  const { requests, total } = await listRequests(query);
  return Response.json(requests, {
    headers: { "x-total-count": String(total), "cache-control": "no-store" },
  });
});
