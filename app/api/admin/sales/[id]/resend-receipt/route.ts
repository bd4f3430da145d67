// POST /api/admin/sales/{id}/resend-receipt - mail the buyer's receipt (with the order link) again
import { route } from "@/lib/api/handler";
import { resendReceipt } from "@/lib/orders/admin";
import { uuidParams } from "@/lib/schemas/common";

export const POST = route({ admin: true, params: uuidParams }, async ({ params }) =>
  resendReceipt(params.id),
);
