// GET /api/admin/sales - a page of sales by date, optionally ?status= (X-Total-Count carries the total)
import { route } from "@/lib/api/handler";
import { listSales } from "@/lib/orders/admin";
import { salesListQuery } from "@/lib/schemas/admin";

export const GET = route({ admin: true, query: salesListQuery }, async ({ query }) => {
  const { sales, total } = await listSales(query);
  return Response.json(sales, { headers: { "x-total-count": String(total), "cache-control": "no-store" } });
});
