import { route } from "@/lib/api/handler";
import { createPayment } from "@/lib/payments/orders";
import { createPaymentBody } from "@/lib/schemas/payment";

// POST /api/payment/create - record an order and open a provider invoice for it
export const POST = route({ body: createPaymentBody }, async ({ body }) => createPayment(body));
