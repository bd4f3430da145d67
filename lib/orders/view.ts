import "server-only";
import type { EmailQuality } from "@/lib/email-quality";
import type { Location } from "@/lib/location";
import { db } from "@/lib/db";
import type { Segment } from "@/lib/segments/vocabularies";
import type { PackageId } from "@/lib/packages";

// How the order code reads an order: one narrow select, with its decimals turned into numbers.

export const orderViewSelect = {
  id: true,
  categoryId: true,
  leadTitle: true,
  packageType: true,
  leadCount: true,
  location: true,
  segment: true,
  emailQuality: true,
  amount: true,
  currency: true,
  status: true,
  invoiceId: true,
  providerPaymentId: true,
  paidAt: true,
  downloadKey: true,
  downloadExpiresAt: true,
  actuallyPaidFiat: true,
  excludedBought: true,
  excludedListed: true,
} as const;

export type OrderView = {
  id: string;
  categoryId: string;
  leadTitle: string;
  packageType: PackageId;
  leadCount: number;
  location: Location;
  /** The segment bought (lib/segments), null for the whole list. */
  segment: Segment | null;
  /** Which email statuses the order accepts (lib/email-quality.ts). */
  emailQuality: EmailQuality;
  amount: number;
  currency: string;
  status: string;
  invoiceId: string | null;
  providerPaymentId: string | null;
  paidAt: Date | null;
  downloadKey: string;
  downloadExpiresAt: Date | null;
  actuallyPaidFiat: number | null;
  /** Set at payment: the category's leads the buyer's earlier purchases and exclusion list left out. */
  excludedBought: number | null;
  excludedListed: number | null;
};

type OrderViewRow = Omit<OrderView, "amount" | "actuallyPaidFiat" | "segment"> & {
  segment: unknown;
  amount: { toNumber(): number };
  actuallyPaidFiat: { toNumber(): number } | null;
};

/** An order row selected with `orderViewSelect`, with its decimals as numbers. */
export function toOrderView(row: OrderViewRow): OrderView {
  return {
    ...row,
    segment: (row.segment as Segment | null) ?? null,
    amount: row.amount.toNumber(),
    actuallyPaidFiat: row.actuallyPaidFiat === null ? null : row.actuallyPaidFiat.toNumber(),
  };
}

const n = (value: number) => value.toLocaleString("en-US");
const contacts = (value: number) => `${n(value)} contact${value === 1 ? "" : "s"}`;

/**
 * What an order left out, as the order page, the receipt and the admin say it (only the parts that
 * apply; "" for none): "1,000 contacts you bought before and 120 from your list were left out".
 */
export function describeExclusions(order: Pick<OrderView, "excludedBought" | "excludedListed">): string {
  const bought = order.excludedBought ?? 0;
  const listed = order.excludedListed ?? 0;
  if (bought && listed)
    return `${contacts(bought)} you bought before and ${n(listed)} from your list were left out`;
  if (bought) return `${contacts(bought)} you bought before ${bought === 1 ? "was" : "were"} left out`;
  if (listed) return `${contacts(listed)} from your list ${listed === 1 ? "was" : "were"} left out`;
  return "";
}

/** The ways an order is named: its id, its download key and the provider's two ids. */
export type OrderWhere =
  { id: string } | { downloadKey: string } | { providerPaymentId: string } | { invoiceId: string };

export async function findOrder(where: OrderWhere): Promise<OrderView | null> {
  const row = await db().order.findUnique({ where, select: orderViewSelect });
  return row ? toOrderView(row) : null;
}
