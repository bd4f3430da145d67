import { attachmentHeaders, CONTENT_TYPES, CSV_TYPE } from "@/lib/api/attachment";
import { clientAddress } from "@/lib/api/client-address";
import { route } from "@/lib/api/handler";
import { openDownload } from "@/lib/leads/download";
import { orderForDownload } from "@/lib/orders/access";
import { downloadQuery, paymentIdParams } from "@/lib/schemas/payment";

export const dynamic = "force-dynamic";

// GET /api/leads/download/{downloadKey} - the paid order's leads as CSV (or ?format=xlsx)
export const GET = route(
  { params: paymentIdParams, query: downloadQuery },
  async ({ params, query, request }) => {
    const clientIp = clientAddress(request.headers);
    const order = await orderForDownload(params.id, { clientIp });
    const stream = await openDownload(order, query.format, clientIp);
    const type = query.format === "xlsx" ? CONTENT_TYPES.xlsx : CSV_TYPE;
    return new Response(stream, {
      headers: {
        ...attachmentHeaders(`leads-${params.id}.${query.format}`, type),
        // The key is in this address: never pass it on to another site.
        "referrer-policy": "no-referrer",
      },
    });
  },
);
