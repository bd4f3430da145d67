import { attachmentHeaders } from "@/lib/api/attachment";
import { CONTENT_TYPES, CSV_TYPE } from "@/lib/content-types";
import { route } from "@/lib/api/handler";
import { openDownload } from "@/lib/leads/download";
import { orderForDownload } from "@/lib/orders/access";
import { orderKeyParams } from "@/lib/schemas/orders";
import { downloadQuery } from "@/lib/schemas/payment";

export const dynamic = "force-dynamic";

// GET /api/leads/download/{downloadKey} - the paid order's leads as CSV (or ?format=xlsx)
export const GET = route(
  { params: orderKeyParams, query: downloadQuery },
  async ({ params, query, caller }) => {
    const order = await orderForDownload(params.key, caller);
    const stream = await openDownload(order, query.format, caller.clientIp);
    const type = query.format === "xlsx" ? CONTENT_TYPES.xlsx : CSV_TYPE;
    return new Response(stream, {
      headers: {
        ...attachmentHeaders(`leads-${params.key}.${query.format}`, type),
        // The key is in this address: never pass it on to another site.
        "referrer-policy": "no-referrer",
      },
    });
  },
);
