// POST /api/admin/categories/{id}/quarantine/claims/{claimId}/held/replace - swap the claim's held rows for fresh leads
import { route } from "@/lib/api/handler";
import { replaceHeld } from "@/lib/orders/replacement/held-review";
import { claimParams } from "@/lib/schemas/admin";

export const POST = route({ admin: true, params: claimParams }, async ({ params }) => ({
  success: true,
  ...(await replaceHeld(params.id, params.claimId)),
}));
