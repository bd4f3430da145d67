// GET /api/admin/sales/{id} - one order in full (buyer email, provider ids, status history)
import { route } from "@/lib/api/handler";
import { getSaleDetail } from "@/lib/orders/admin";
import { uuidParams } from "@/lib/schemas/common";

export const GET = route({ admin: true, params: uuidParams }, async ({ params }) => getSaleDetail(params.id));
