import { fileResponse } from "@/lib/api/attachment";
import { route } from "@/lib/api/handler";
import { countInvoicePdf, invoiceableOrder, saveInvoiceDetails } from "@/lib/orders/invoice";
import { invoicePdf } from "@/lib/orders/invoice-pdf";
import { invoiceDetailsBody } from "@/lib/schemas/invoice";
import { orderKeyParams } from "@/lib/schemas/orders";

export const dynamic = "force-dynamic";

const PRIVATE = { "cache-control": "no-store", "referrer-policy": "no-referrer" };

// POST /api/orders/{key}/invoice - issue the paid order's invoice, or correct its details once
export const POST = route(
  { params: orderKeyParams, body: invoiceDetailsBody },
  async ({ params, body, caller }) => {
    const order = await invoiceableOrder(params.key, caller);
    const { invoice, issued } = await saveInvoiceDetails(order, body);
    return Response.json(invoice, { status: issued ? 201 : 200, headers: PRIVATE });
  },
);

// GET /api/orders/{key}/invoice - the invoice as a PDF attachment
export const GET = route({ params: orderKeyParams }, async ({ params, caller }) => {
  const order = await invoiceableOrder(params.key, caller);
  await countInvoicePdf(order.id);
  const response = fileResponse(await invoicePdf(order));
  response.headers.set("referrer-policy", "no-referrer");
  return response;
});
