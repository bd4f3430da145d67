// GET /api/admin/categories/{id}/quarantine/claims - the claims with flagged leads or held rows, newest first (X-Total-Count carries the total)
import { route } from "@/lib/api/handler";
import { listQuarantineClaims } from "@/lib/orders/claim-review";
import { quarantineClaimsQuery } from "@/lib/schemas/admin";
import { uuidParams } from "@/lib/schemas/common";

export const GET = route(
  { admin: true, params: uuidParams, query: quarantineClaimsQuery },
  async ({ params, query }) => {
    const { claims, total } = await listQuarantineClaims(params.id, query);
    return Response.json(claims, {
      headers: { "x-total-count": String(total), "cache-control": "no-store" },
    });
  },
);
