// POST /api/admin/sales/{id}/recheck - ask the provider about the order's payment now
import { route } from "@/lib/api/handler";
import { recheckSale } from "@/lib/orders/admin";
import { uuidParams } from "@/lib/schemas/common";
import { recheckBody } from "@/lib/schemas/payment";

export const POST = route({ admin: true, params: uuidParams, body: recheckBody }, async ({ params, body }) =>
  recheckSale(params.id, body.paymentId),
);
