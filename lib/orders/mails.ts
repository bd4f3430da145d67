import "server-only";
import { EMAIL_QUALITY_LABELS, type EmailQuality } from "@/lib/email-quality";
import { env } from "@/lib/env";
import type { Mail } from "@/lib/mail";
import { getPackage } from "@/lib/packages";

// The mails of an order (the buyer's receipt and order links, the admin's sale and shortfall
// notices), as pure templates: lib/orders/notify.ts and replacement/claim.ts queue them in the
// transaction that causes them.

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

export type ReceiptData = {
  to: string;
  categoryTitle: string;
  /** The segment bought, as describeSegment writes it; "" for the whole list. */
  segment: string;
  /** Which email statuses the order accepts (lib/email-quality.ts). */
  emailQuality: EmailQuality;
  packageType: string;
  leadCount: number;
  /** describeExclusions' line; "" for nothing left out. */
  excluded: string;
  amount: number;
  currency: string;
  orderUrl: string;
  /** The invoice PDF's address (lib/orders/links.ts). */
  invoiceUrl: string;
  expiresAt: Date;
};

export function receiptMail(data: ReceiptData): Mail {
  const pkg = getPackage(data.packageType);
  const packageName = pkg?.name ?? data.packageType;
  const amount = `${data.amount.toFixed(2)} ${data.currency.toUpperCase()}`;
  const expires = `${dateFormat.format(data.expiresAt)} (UTC)`;
  return {
    to: data.to,
    subject: `Your LeadMarket receipt: ${data.categoryTitle} - ${packageName} package`,
    text: [
      "Thank you for your purchase. Your payment is confirmed.",
      "",
      `Category: ${data.categoryTitle}`,
      ...(data.segment ? [`Segment: ${data.segment}`] : []),
      `Email status: ${EMAIL_QUALITY_LABELS[data.emailQuality]}`,
      `Package: ${packageName}`,
      `Leads: ${data.leadCount.toLocaleString("en-US")}`,
      ...(data.excluded ? [`${data.excluded}.`] : []),
      `Amount paid: ${amount}`,
      "",
      "Your order page, with CSV and Excel downloads:",
      data.orderUrl,
      "",
      `The download links work until ${expires}. After that, ask for fresh links at the "Find my orders" page with this email address.`,
      "",
      `Need an invoice? Enter your company's details under "Invoice" on your order page (${data.orderUrl}#invoice); the PDF is then at:`,
      data.invoiceUrl,
      "",
      "Due-diligence statement for this order (sources, collection and verification dates, TPS/CTPS screening, opt-outs):",
      `${data.orderUrl}/statement`,
      "",
      "Replacement guarantee: if more than 5% of these leads turn out to be invalid, report their email addresses on your order page (paste them or upload a CSV) within 30 days of payment: we swap exactly those rows for fresh leads of the same category, free of charge, once per order.",
      "",
      "Keep this link private: anyone who has it can download your leads.",
    ].join("\n"),
  };
}

export type OrderListingMailData = { to: string; signInUrl: string; validMinutes: number };

export function orderListingMail(data: OrderListingMailData): Mail {
  return {
    to: data.to,
    subject: "Your LeadMarket orders",
    text: [
      "Someone (hopefully you) asked for the orders bought with this email address.",
      "",
      `Open this link within ${data.validMinutes} minutes to see them, each with a fresh download link:`,
      data.signInUrl,
      "",
      "If you did not ask for this, you can ignore this mail: nothing changes without the link.",
    ].join("\n"),
  };
}

export type SaleSummary = {
  id: string;
  leadTitle: string;
  packageType: string;
  leadCount: number;
  amount: string;
  currency: string;
};

/** The admin's mail about a confirmed sale. */
export function saleNotification(sale: SaleSummary, to: string): Mail {
  const pkg = getPackage(sale.packageType);
  const price = `${sale.amount} ${sale.currency.toUpperCase()}`;
  return {
    to,
    subject: `New sale: ${sale.leadTitle} - ${pkg?.name ?? sale.packageType} (${price})`,
    text: [
      "A payment was confirmed.",
      "",
      `Category: ${sale.leadTitle}`,
      `Package: ${pkg?.name ?? sale.packageType} (${sale.leadCount.toLocaleString("en-US")} leads)`,
      `Amount: ${price}`,
      `Order: ${sale.id}`,
      "",
      `Dashboard: ${env().PUBLIC_BASE_URL}/admin/dashboard`,
    ].join("\n"),
  };
}

/** The admin's notice that a replacement claim could not be covered in full. */
export function shortfallMail(
  to: string,
  order: { id: string; lead_title: string; package_type: string; lead_count: number },
  shortfall: number,
  replaced: number,
): Mail {
  return {
    to,
    subject: `Replacement shortfall: ${order.lead_title} - ${shortfall} lead${shortfall === 1 ? "" : "s"} missing`,
    text: [
      "A buyer's replacement claim was accepted, but the category had too few fresh leads to cover it.",
      "",
      `Category: ${order.lead_title}`,
      `Package: ${order.package_type} (${order.lead_count.toLocaleString("en-US")} leads)`,
      `Replaced: ${replaced}`,
      `Not replaced (shortfall): ${shortfall}`,
      `Order: ${order.id}`,
      "",
      "Import more leads into the category and contact the buyer, or refund the difference.",
      `Dashboard: ${env().PUBLIC_BASE_URL}/admin/dashboard`,
    ].join("\n"),
  };
}

/** The buyer's notice that rows of their file were swapped (lib/orders/heal.ts), at most daily. */
export function healMail(to: string, categoryTitle: string, swapped: number, orderUrl: string): Mail {
  const leads = `${swapped.toLocaleString("en-US")} lead${swapped === 1 ? "" : "s"}`;
  return {
    to,
    subject: `${leads} in your order were found invalid and replaced`,
    text: [
      `${leads} in your order were found invalid and replaced.`,
      "",
      `Category: ${categoryTitle}`,
      "",
      "Our checks found these addresses invalid after your purchase, so we put fresh leads of the same category, location and filters in their rows. Download your file again to get them; it keeps its number of rows. This does not use your replacement claim.",
      "",
      "Your order page, with the rows that changed:",
      orderUrl,
    ].join("\n"),
  };
}
