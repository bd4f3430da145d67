import "server-only";
import { AppError, conflict, notFound } from "@/lib/errors";
import { db, transaction } from "@/lib/db";
import { CSV_TYPE, type OutgoingFile } from "@/lib/content-types";
import { csvTable, datedCsvName } from "@/lib/csv";
import type { Prisma } from "@/lib/generated/prisma/client";
import { queueReceipt } from "@/lib/orders/notify";
import { getPaymentProvider } from "@/lib/payments";
import { applyGivenPayment, refreshFromProvider } from "@/lib/orders/sync";
import { describeExclusions, orderViewSelect, toOrderView } from "@/lib/orders/view";
import { CLOSED_STATUSES } from "@/lib/payments/status";
import { describeSegment, type Segment } from "@/lib/segments/vocabularies";
import type { SaleDetailDto, SaleDto, SaleFilter, SalesListQuery } from "@/lib/schemas/admin";

const saleSelect = { ...orderViewSelect, createdAt: true } as const;

type SaleRow = Prisma.OrderGetPayload<{ select: typeof saleSelect }>;

function toSale(row: SaleRow): SaleDto {
  return {
    _id: row.id,
    paymentId: row.providerPaymentId ?? row.invoiceId ?? row.id,
    categoryId: row.categoryId,
    leadTitle: row.leadTitle,
    segment: describeSegment(row.segment as Segment | null),
    emailQuality: row.emailQuality,
    packageType: row.packageType,
    leadCount: row.leadCount,
    amount: row.amount.toNumber(),
    status: row.paidAt ? "confirmed" : row.status || "pending",
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
  };
}

const FILTERS: Record<SaleFilter, Prisma.OrderWhereInput> = {
  confirmed: { paidAt: { not: null } },
  pending: { paidAt: null, status: { notIn: [...CLOSED_STATUSES] } },
  expired: { paidAt: null, status: "expired" },
  cancelled: { paidAt: null, status: "cancelled" },
  failed: { paidAt: null, status: { in: ["failed", "refunded", "error"] } },
};

/** One page of sales by date (optionally of one status), with the total for paging. */
export async function listSales(query: SalesListQuery): Promise<{ sales: SaleDto[]; total: number }> {
  const where = query.status ? FILTERS[query.status] : {};
  const [rows, total] = await Promise.all([
    db().order.findMany({
      where,
      select: saleSelect,
      orderBy: [{ createdAt: query.order }, { id: query.order }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
    db().order.count({ where }),
  ]);
  return { sales: rows.map(toSale), total };
}

const decimal = (value: { toNumber(): number } | null) => (value === null ? null : value.toNumber());

/** One order in full: buyer email, provider ids and amounts, status history. Never the download key. */
export async function getSaleDetail(id: string): Promise<SaleDetailDto> {
  const row = await db().order.findUnique({
    where: { id },
    select: {
      ...saleSelect,
      buyerEmail: true,
      payCurrency: true,
      actuallyPaid: true,
      actuallyPaidFiat: true,
      downloadExpiresAt: true,
      receiptSentAt: true,
      checkedAt: true,
      lastError: true,
      events: { orderBy: { id: "asc" }, select: { status: true, note: true, createdAt: true } },
    },
  });
  if (!row) throw notFound("Sale not found");
  return {
    ...toSale(row),
    buyerEmail: row.buyerEmail,
    invoiceId: row.invoiceId,
    providerPaymentId: row.providerPaymentId,
    payCurrency: row.payCurrency,
    actuallyPaid: decimal(row.actuallyPaid),
    actuallyPaidFiat: decimal(row.actuallyPaidFiat),
    downloadExpiresAt: row.downloadExpiresAt?.toISOString() ?? null,
    receiptSentAt: row.receiptSentAt?.toISOString() ?? null,
    checkedAt: row.checkedAt?.toISOString() ?? null,
    lastError: row.lastError,
    excluded: describeExclusions(row),
    history: row.events.map((event) => ({
      status: event.status,
      note: event.note,
      at: event.createdAt.toISOString(),
    })),
  };
}

/**
 * "Recheck": asks the provider about the order's payment now (at most once a minute per payment).
 * An order with no payment stored (a cancelled checkout paid later, without callbacks) is rechecked
 * with a payment id the admin gives, applied only when the provider says it pays the order's invoice.
 */
export async function recheckSale(id: string, paymentId?: string): Promise<SaleDetailDto> {
  const row = await db().order.findUnique({ where: { id }, select: orderViewSelect });
  if (!row) throw notFound("Sale not found");
  if (!row.providerPaymentId && !paymentId) {
    throw conflict(
      "No provider payment is known for this order yet: the buyer has not started paying. If they paid its invoice, recheck with the payment id.",
    );
  }
  const provider = await getPaymentProvider();
  if (!provider) throw new AppError(503, "Payments are not configured.");
  const order = toOrderView(row);
  if (order.paidAt) return getSaleDetail(id);
  if (order.providerPaymentId) await refreshFromProvider(order, provider);
  else if (!(await applyGivenPayment(order, paymentId!, provider))) {
    throw conflict("The provider knows no payment with this id for this order's invoice.");
  }
  return getSaleDetail(id);
}

/** "Resend receipt": mails the buyer their receipt with the order link again. */
export async function resendReceipt(id: string): Promise<SaleDetailDto> {
  const row = await db().order.findUnique({ where: { id }, select: { paidAt: true, buyerEmail: true } });
  if (!row) throw notFound("Sale not found");
  if (!row.paidAt) throw conflict("This order is not paid: there is no receipt to send.");
  if (!row.buyerEmail) throw conflict("The buyer gave no email address for this order.");
  await transaction((tx) => queueReceipt(tx, id));
  return getSaleDetail(id);
}

export function exportSales(): OutgoingFile {
  const body = csvTable({
    header: [
      "Date",
      "Payment ID",
      "Category",
      "Segment",
      "Package",
      "Lead Count",
      "Amount (USD)",
      "Status",
      "Paid At",
    ],
    pageSize: 2000,
    readPage: (page) =>
      db().order.findMany({ select: saleSelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...page }),
    cells: (row) => {
      const sale = toSale(row);
      return [
        sale.createdAt,
        sale.paymentId,
        sale.leadTitle,
        sale.segment,
        sale.packageType,
        sale.leadCount,
        sale.amount.toFixed(2),
        sale.status,
        sale.paidAt ?? "",
      ];
    },
  });
  return { fileName: datedCsvName("sales"), contentType: CSV_TYPE, body };
}
