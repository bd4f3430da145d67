import { attachmentHeaders } from "@/lib/api/attachment";
import { route } from "@/lib/api/handler";
import { DOWNLOAD_TYPES, openDownload } from "@/lib/leads/download";
import { downloadFileName } from "@/lib/schemas/formats";
import { orderForDownload } from "@/lib/orders/access";
import { orderKeyParams } from "@/lib/schemas/orders";
import { downloadQuery } from "@/lib/schemas/payment";

export const dynamic = "force-dynamic";

// GET /api/leads/download/{downloadKey}?format= - the paid order's leads as CSV (the default),
// xlsx, hubspot, salesforce, json or ndjson
export const GET = route(
  { params: orderKeyParams, query: downloadQuery },
  async ({ params, query, caller }) => {
    const order = await orderForDownload(params.key, caller);
    const stream = await openDownload(order, query.format, caller.clientIp);
    return new Response(stream, {
      headers: {
        ...attachmentHeaders(downloadFileName(params.key, query.format), DOWNLOAD_TYPES[query.format]),
        // The key is in this address: never pass it on to another site.
        "referrer-policy": "no-referrer",
      },
    });
  },
);
