import "server-only";
import type { Location } from "@/lib/location";
import { LOCATION_NAMES } from "@/lib/location";
import { getPackage } from "@/lib/packages";
import { countryName } from "@/lib/schemas/invoice";
import { describeSegment, type Segment } from "@/lib/segments/vocabularies";

// What an invoice says (docs/product-rules.md, "Invoices"), as text, before it is drawn: the
// parties, the one line, and the price split into net and VAT. Prices include VAT: the buyer paid
// the package price, so VAT is the seller's rate taken out of it, and under reverse charge (the
// buyer's VAT ID is from another country than the seller's VAT number) all of it is net.

export const REVERSE_CHARGE_TEXT =
  "Reverse charge: no VAT is charged on this supply; the customer accounts for the VAT due.";

/** The invoice and order columns the document reads. */
export type InvoiceRecord = {
  number: number;
  companyName: string;
  address: string;
  country: string;
  vatId: string | null;
  sellerLegalName: string;
  sellerAddress: string;
  sellerVatNumber: string;
  vatRatePercent: number;
  issuedAt: Date;
  correctedAt: Date | null;
  order: {
    leadTitle: string;
    packageType: string;
    location: Location;
    segment: Segment | null;
    leadCount: number;
    amount: number;
    payCurrency: string | null;
    /** The crypto amount received, in normal notation ("0.00123456"), or null when not reported. */
    actuallyPaid: string | null;
    paidAt: Date;
  };
};

export type InvoiceDocument = {
  title: string;
  facts: [string, string][];
  seller: string[];
  buyer: string[];
  line: { description: string[]; leads: string; price: string };
  totals: [string, string][];
  notes: string[];
};

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
const usd = (cents: number) =>
  `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Whether the buyer accounts for the VAT: both have VAT numbers, from different countries. */
export function isReverseCharge(vatId: string | null, sellerVatNumber: string): boolean {
  return vatId !== null && sellerVatNumber !== "" && vatId.slice(0, 2) !== sellerVatNumber.slice(0, 2);
}

/** The VAT in a price that includes it, in cents: rounded half up, the net is the rest. */
export function vatIncluded(totalCents: number, ratePercent: number): number {
  const rateHundredths = Math.round(ratePercent * 100);
  return Math.round((totalCents * rateHundredths) / (10_000 + rateHundredths));
}

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

export function invoiceDocument(record: InvoiceRecord): InvoiceDocument {
  const { order } = record;
  const reverseCharge = isReverseCharge(record.vatId, record.sellerVatNumber);
  const totalCents = Math.round(order.amount * 100);
  const vatCents = reverseCharge ? 0 : vatIncluded(totalCents, record.vatRatePercent);
  const packageName = getPackage(order.packageType)?.name ?? order.packageType;
  const crypto =
    order.actuallyPaid !== null && order.payCurrency
      ? `${order.actuallyPaid} ${order.payCurrency.toUpperCase()}`
      : "cryptocurrency";
  return {
    title: "Invoice",
    facts: [
      ["Invoice number", String(record.number)],
      ["Invoice date", dateFormat.format(record.issuedAt)],
      ["Payment date", dateFormat.format(order.paidAt)],
      ...(record.correctedAt
        ? [["Buyer details corrected", dateFormat.format(record.correctedAt)] as [string, string]]
        : []),
    ],
    seller: [
      record.sellerLegalName,
      ...lines(record.sellerAddress),
      ...(record.sellerVatNumber ? [`VAT number: ${record.sellerVatNumber}`] : []),
    ],
    buyer: [
      record.companyName,
      ...lines(record.address),
      countryName(record.country),
      ...(record.vatId ? [`VAT ID: ${record.vatId}`] : []),
    ],
    line: {
      description: [
        `${order.leadTitle} - ${packageName} package`,
        `Location: ${LOCATION_NAMES[order.location]}`,
        `Segment: ${describeSegment(order.segment) || "All leads"}`,
      ],
      leads: order.leadCount.toLocaleString("en-US"),
      price: usd(totalCents),
    },
    totals: [
      ["Net (USD)", usd(totalCents - vatCents)],
      [reverseCharge ? "VAT (reverse charge)" : `VAT (${record.vatRatePercent}%)`, usd(vatCents)],
      ["Total (USD)", usd(totalCents)],
    ],
    notes: [
      `Paid in full: ${crypto} on ${dateFormat.format(order.paidAt)}.`,
      ...(reverseCharge ? [REVERSE_CHARGE_TEXT] : []),
    ],
  };
}
