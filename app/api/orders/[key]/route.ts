import { route } from "@/lib/api/handler";
import { orderSummary } from "@/lib/orders/summary";
import { orderKeyParams } from "@/lib/schemas/orders";

export const dynamic = "force-dynamic";

// GET /api/orders/{key} - the buyer's order by its download key
export const GET = route({ params: orderKeyParams }, async ({ params, caller }) => {
  const summary = await orderSummary(params.key, caller);
  return Response.json(summary, {
    headers: { "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });
});
