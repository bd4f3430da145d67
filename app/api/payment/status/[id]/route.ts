import { route } from "@/lib/api/handler";
import { paymentStatus } from "@/lib/orders/access";
import { paymentIdParams, paymentStatusQuery } from "@/lib/schemas/payment";

export const dynamic = "force-dynamic";

// GET /api/payment/status/{id} - status and amount by download key, provider payment id or invoice id
export const GET = route(
  { params: paymentIdParams, query: paymentStatusQuery },
  async ({ params, query, caller }) => {
    const answer = await paymentStatus(params.id, caller, query.NP_id);
    return Response.json(answer, { headers: { "cache-control": "no-store" } });
  },
);
