import { route } from "@/lib/api/handler";
import { notFound } from "@/lib/errors";
import { findTestInvoice, testRedirect } from "@/lib/orders/test-invoice";
import { paymentIdParams, testPaymentForm } from "@/lib/schemas/payment";

// POST /api/payment/test/{invoiceId} - the test payment page's Pay / Cancel (test mode only)
export const POST = route({ params: paymentIdParams, rawBody: "form" }, async ({ params, rawBody: form }) => {
  const invoice = await findTestInvoice(params.id);
  if (!invoice) throw notFound("Not found");
  const { action } = testPaymentForm.parse({ action: form.get("action") });
  return Response.redirect(testRedirect(invoice, action), 303);
});
