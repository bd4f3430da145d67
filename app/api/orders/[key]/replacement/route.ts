import { route } from "@/lib/api/handler";
import { CLAIM_LIMITS, readClaimAddresses } from "@/lib/orders/claim-input";
import { claimableOrder, claimReplacement } from "@/lib/orders/replacement/claim";
import { orderKeyParams } from "@/lib/schemas/orders";

export const dynamic = "force-dynamic";

// POST /api/orders/{key}/replacement - report invalid leads (JSON list or CSV upload) for replacement
// Its window limits (the order's claims a day; CSV uploads per address and per order) count every
// request of their body kind to the order's path: their refusals stand.
export const POST = route(
  { params: orderKeyParams, upload: true, standingLimits: true },
  async ({ params, caller, upload }) => {
    // The key must name a paid order before any of the body is read.
    const order = await claimableOrder(params.key, caller);
    const addresses = await readClaimAddresses(await upload.read(CLAIM_LIMITS), order.id, caller.clientIp);
    const answer = await claimReplacement(order, addresses);
    return Response.json(answer, {
      status: 201,
      headers: { "cache-control": "no-store", "referrer-policy": "no-referrer" },
    });
  },
);
