import { readBoundedText } from "@/lib/api/body";
import { route } from "@/lib/api/handler";
import { notFound } from "@/lib/errors";
import { findTestInvoice, testRedirect } from "@/lib/orders/test-invoice";
import { paymentIdParams, testPaymentForm } from "@/lib/schemas/payment";

// POST /api/payment/test/{invoiceId} - the test payment page's Pay / Cancel (test mode only)
export const POST = route({ params: paymentIdParams }, async ({ params, request }) => {
  const invoice = await findTestInvoice(params.id);
  if (!invoice) throw notFound("Not found");
  // The page's form is one field: a larger body is refused (413) before it is read to its end.
  const form = new URLSearchParams(await readBoundedText(request, 1024));
  const { action } = testPaymentForm.parse({ action: form.get("action") });
  return Response.redirect(testRedirect(invoice, action), 303);
});
