import { setCookieHeader } from "@/lib/api/cookies";
import { route } from "@/lib/api/handler";
import { BROWSER_COOKIE, browserIdentity } from "@/lib/orders/browser";
import { createPayment } from "@/lib/orders/create";
import { createPaymentBody } from "@/lib/schemas/payment";

// POST /api/payment/create - record an order (or hand back this browser's open one) and its invoice
export const POST = route({ body: createPaymentBody }, async ({ body, cookies, https, caller }) => {
  const { browserId, cookie } = browserIdentity(cookies[BROWSER_COOKIE], https);
  const answer = await createPayment(body, { ...caller, browserId });
  return Response.json(answer, { headers: cookie ? { "set-cookie": setCookieHeader(cookie) } : undefined });
});
