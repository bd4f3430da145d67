// POST /api/admin/categories/{id}/quarantine/claims/{claimId}/held/decline - keep the claim's held rows as delivered
import { route } from "@/lib/api/handler";
import { declineHeld } from "@/lib/orders/replacement/held-review";
import { claimParams } from "@/lib/schemas/admin";

export const POST = route({ admin: true, params: claimParams }, async ({ params }) => ({
  success: true,
  declined: await declineHeld(params.id, params.claimId),
}));
