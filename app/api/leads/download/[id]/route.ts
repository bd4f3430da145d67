import { attachmentHeaders, CONTENT_TYPES, CSV_TYPE } from "@/lib/api/attachment";
import { clientAddress } from "@/lib/api/client-address";
import { route } from "@/lib/api/handler";
import { PACKAGE_COLUMNS } from "@/lib/packages";
import { csvStream } from "@/lib/leads/export-csv";
import { orderXlsxStream } from "@/lib/leads/export-xlsx";
import { orderForDownload } from "@/lib/orders/access";
import { downloadQuery, paymentIdParams } from "@/lib/schemas/payment";

export const dynamic = "force-dynamic";

// GET /api/leads/download/{downloadKey} - the paid order's leads as CSV (or ?format=xlsx)
export const GET = route(
  { params: paymentIdParams, query: downloadQuery },
  async ({ params, query, request }) => {
    const order = await orderForDownload(params.id, { clientIp: clientAddress(request.headers) });
    const columns = PACKAGE_COLUMNS[order.packageType];
    const xlsx = query.format === "xlsx";
    const stream = xlsx ? orderXlsxStream(order.id, columns) : csvStream(order.id, columns);
    const type = xlsx ? CONTENT_TYPES.xlsx : CSV_TYPE;
    return new Response(stream, {
      headers: {
        ...attachmentHeaders(`leads-${params.id}.${query.format}`, type),
        // The key is in this address: never pass it on to another site.
        "referrer-policy": "no-referrer",
      },
    });
  },
);
