// POST /api/admin/categories/{id}/quarantine/claims/{claimId}/release - keep the claim's flagged leads on sale, clearing their flags
import { route } from "@/lib/api/handler";
import { releaseClaim } from "@/lib/orders/claim-review";
import { claimParams } from "@/lib/schemas/admin";

export const POST = route({ admin: true, params: claimParams }, async ({ params }) => ({
  success: true,
  released: await releaseClaim(params.id, params.claimId),
}));
