// DELETE /api/admin/categories/{id}/quarantine/claims/{claimId} - take the claim's flagged leads off sale (sold ones stay in their files, marked invalid)
import { route } from "@/lib/api/handler";
import { deleteClaim } from "@/lib/orders/claim-review";
import { claimParams } from "@/lib/schemas/admin";

export const DELETE = route({ admin: true, params: claimParams }, async ({ params }) => ({
  success: true,
  deleted: await deleteClaim(params.id, params.claimId),
}));
