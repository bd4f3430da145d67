import "server-only";
import { db } from "@/lib/db";
import { csvResponse, dateStamp } from "@/lib/admin/csv";
import type { ListQuery, SaleDto } from "@/lib/schemas/admin";

const saleSelect = {
  id: true,
  categoryId: true,
  leadTitle: true,
  packageType: true,
  leadCount: true,
  amount: true,
  status: true,
  invoiceId: true,
  providerPaymentId: true,
  paidAt: true,
  createdAt: true,
} as const;

type SaleRow = {
  id: string;
  categoryId: string;
  leadTitle: string;
  packageType: SaleDto["packageType"];
  leadCount: number;
  amount: { toNumber(): number };
  status: string;
  invoiceId: string | null;
  providerPaymentId: string | null;
  paidAt: Date | null;
  createdAt: Date;
};

function toSale(row: SaleRow): SaleDto {
  return {
    _id: row.id,
    paymentId: row.providerPaymentId ?? row.invoiceId ?? row.id,
    categoryId: row.categoryId,
    leadTitle: row.leadTitle,
    packageType: row.packageType,
    leadCount: row.leadCount,
    amount: row.amount.toNumber(),
    status: row.paidAt ? "confirmed" : row.status || "pending",
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
  };
}

/** One page of sales by date, with the total for paging. */
export async function listSales(query: ListQuery): Promise<{ sales: SaleDto[]; total: number }> {
  const [rows, total] = await Promise.all([
    db().order.findMany({
      select: saleSelect,
      orderBy: [{ createdAt: query.order }, { id: query.order }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
    db().order.count(),
  ]);
  return { sales: rows.map(toSale), total };
}

const EXPORT_PAGE = 2000;

export function exportSales(): Response {
  return csvResponse(
    `sales-${dateStamp()}.csv`,
    ["Date", "Payment ID", "Category", "Package", "Lead Count", "Amount (USD)", "Status", "Paid At"],
    async function* () {
      let cursor: string | undefined;
      for (;;) {
        const rows = await db().order.findMany({
          select: saleSelect,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: EXPORT_PAGE,
          ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
        });
        if (rows.length === 0) return;
        yield rows.map((row) => {
          const sale = toSale(row);
          return [
            sale.createdAt,
            sale.paymentId,
            sale.leadTitle,
            sale.packageType,
            sale.leadCount,
            sale.amount.toFixed(2),
            sale.status,
            sale.paidAt ?? "",
          ];
        });
        if (rows.length < EXPORT_PAGE) return;
        cursor = rows[rows.length - 1].id;
      }
    },
  );
}
