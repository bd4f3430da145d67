import type { Location } from "@/lib/categories/location";
import type { PackageId } from "@/lib/packages";

// How the order code reads an order: one narrow select, with its decimals turned into numbers.

export const orderViewSelect = {
  id: true,
  categoryId: true,
  leadTitle: true,
  packageType: true,
  leadCount: true,
  location: true,
  amount: true,
  currency: true,
  status: true,
  invoiceId: true,
  providerPaymentId: true,
  paidAt: true,
  downloadKey: true,
  downloadExpiresAt: true,
  actuallyPaidFiat: true,
} as const;

export type OrderView = {
  id: string;
  categoryId: string;
  leadTitle: string;
  packageType: PackageId;
  leadCount: number;
  location: Location;
  amount: number;
  currency: string;
  status: string;
  invoiceId: string | null;
  providerPaymentId: string | null;
  paidAt: Date | null;
  downloadKey: string;
  downloadExpiresAt: Date | null;
  actuallyPaidFiat: number | null;
};

type OrderViewRow = Omit<OrderView, "amount" | "actuallyPaidFiat"> & {
  amount: { toNumber(): number };
  actuallyPaidFiat: { toNumber(): number } | null;
};

/** An order row selected with `orderViewSelect`, with its decimals as numbers. */
export function toOrderView(row: OrderViewRow): OrderView {
  return {
    ...row,
    amount: row.amount.toNumber(),
    actuallyPaidFiat: row.actuallyPaidFiat === null ? null : row.actuallyPaidFiat.toNumber(),
  };
}
