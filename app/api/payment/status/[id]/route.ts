import { route } from "@/lib/api/handler";
import { paymentStatus } from "@/lib/payments/orders";
import { paymentIdParams } from "@/lib/schemas/payment";

export const dynamic = "force-dynamic";

// GET /api/payment/status/{id} - payment status by invoice id or provider payment id (NP_id)
export const GET = route({ params: paymentIdParams }, async ({ params }) => {
  const answer = await paymentStatus(params.id);
  return Response.json(answer, { headers: { "cache-control": "no-store" } });
});
