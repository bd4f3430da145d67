import { clientAddress } from "@/lib/api/client-address";
import { route } from "@/lib/api/handler";
import { readClaimAddresses } from "@/lib/orders/claim-input";
import { claimReplacement } from "@/lib/orders/replacement";
import { orderKeyParams } from "@/lib/schemas/orders";

export const dynamic = "force-dynamic";

// POST /api/orders/{key}/replacement - report invalid leads (JSON list or CSV upload) for replacement
export const POST = route({ params: orderKeyParams }, async ({ params, request }) => {
  const addresses = await readClaimAddresses(request);
  const answer = await claimReplacement(params.key, addresses, { clientIp: clientAddress(request.headers) });
  return Response.json(answer, {
    status: 201,
    headers: { "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });
});
