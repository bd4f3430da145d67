import { route } from "@/lib/api/handler";
import { browserIdentity } from "@/lib/orders/browser";
import { createPayment } from "@/lib/orders/create";
import { createPaymentBody } from "@/lib/schemas/payment";

// POST /api/payment/create - record an order (or hand back this browser's open one) and its invoice
export const POST = route({ body: createPaymentBody }, async ({ body, request, caller }) => {
  const { browserId, setCookie } = browserIdentity(request);
  const answer = await createPayment(body, { ...caller, browserId });
  return Response.json(answer, { headers: setCookie ? { "set-cookie": setCookie } : undefined });
});
