import { route } from "@/lib/api/handler";
import { requestOrderListing } from "@/lib/orders/lookup";
import { orderLookupBody } from "@/lib/schemas/orders";

// POST /api/orders/lookup - mail a sign-in link to the orders of an email (always 202)
export const POST = route({ body: orderLookupBody, standingLimits: true }, async ({ body, caller }) => {
  await requestOrderListing(body.email, caller);
  return Response.json({ success: true }, { status: 202 });
});
