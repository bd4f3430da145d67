import { route } from "@/lib/api/handler";
import { orderOptOuts } from "@/lib/orders/opt-outs";
import { orderKeyParams } from "@/lib/schemas/orders";

export const dynamic = "force-dynamic";

// GET /api/orders/{key}/opt-outs - the people in the order erased since its purchase, as hashes
export const GET = route({ params: orderKeyParams }, async ({ params, caller }) => {
  return Response.json(await orderOptOuts(params.key, caller), {
    headers: { "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });
});
