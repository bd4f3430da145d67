import { route } from "@/lib/api/handler";
import { cancelCheckout } from "@/lib/orders/access";
import { orderKeyParams } from "@/lib/schemas/orders";

// POST /api/orders/{key}/cancel - the buyer left the invoice unpaid (the provider's cancel return)
export const POST = route({ params: orderKeyParams }, async ({ params, caller }) =>
  cancelCheckout(params.key, caller),
);
