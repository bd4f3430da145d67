import "server-only";
import type { Mail } from "@/lib/mail";
import { getPackage } from "@/lib/packages";
import type { SellerIdentity } from "@/lib/schemas/admin";
import type { PrivacyKind } from "@/lib/schemas/privacy";

// The mails of a privacy request, as pure templates. None repeats the address in its text: the
// confirmation mail's row is scrubbed on erasure, and the fewer copies the better.

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

export function privacyConfirmationMail(
  to: string,
  kind: PrivacyKind,
  confirmUrl: string,
  hours: number,
): Mail {
  const what =
    kind === "erasure"
      ? "erase every lead record we hold with this email address"
      : "send you every lead record we hold with this email address";
  return {
    to,
    subject: kind === "erasure" ? "Confirm your erasure request" : "Confirm your data access request",
    text: [
      `Someone (hopefully you) asked LeadMarket to ${what}.`,
      "",
      `Open this link within ${hours} hours and confirm to go ahead:`,
      confirmUrl,
      "",
      "If you did not ask for this, ignore this mail: nothing happens without your confirmation.",
    ].join("\n"),
  };
}

export type HeldLead = {
  categoryTitle: string;
  fields: [label: string, value: string][];
  deliveries: { paidAt: Date; packageType: string }[];
};

export function accessReportMail(to: string, leads: HeldLead[]): Mail {
  const lines: string[] = [];
  if (leads.length === 0) {
    lines.push("We hold no lead records with this email address.");
  } else {
    lines.push(
      `We hold ${leads.length} lead record${leads.length === 1 ? "" : "s"} with this email address, one per category:`,
    );
    for (const lead of leads) {
      lines.push("", `Category: ${lead.categoryTitle}`);
      for (const [label, value] of lead.fields) lines.push(`  ${label}: ${value || "(empty)"}`);
      if (lead.deliveries.length === 0) {
        lines.push("  Delivered in orders: none");
      } else {
        lines.push("  Delivered in orders:");
        for (const delivery of lead.deliveries) {
          const name = getPackage(delivery.packageType)?.name ?? delivery.packageType;
          lines.push(`    ${dateFormat.format(delivery.paidAt)} - ${name} package`);
        }
      }
    }
  }
  lines.push("", "To have these records erased, send an erasure request from our privacy requests page.");
  return { to, subject: "Your LeadMarket data access report", text: lines.join("\n") };
}

/** A postal address of several lines on one. */
const oneLine = (address: string): string =>
  address
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .join(", ");

export type NoticeContent = {
  seller: SellerIdentity;
  /** Where the lead came from, as the import recorded it. */
  source: string;
  optOutUrl: string;
  validDays: number;
};

/**
 * The Article 14 notice (docs/product-rules.md, "UK compliance"): who holds the person's details,
 * from where, what for, on what basis, who receives them, for how long, their rights, and a link
 * that erases them.
 */
export function privacyNoticeMail(to: string, notice: NoticeContent): Mail {
  const { seller } = notice;
  return {
    to,
    subject: `${seller.sellerLegalName} holds your business contact details`,
    text: [
      `${seller.sellerLegalName}, ${oneLine(seller.sellerAddress)}, registered with the UK Information Commissioner's Office as ${seller.sellerIcoNumber}, holds your business contact details: your name, job title, company and its details, work email address, phone number, city and region, and profile URL.`,
      "",
      `Where they came from: ${notice.source}.`,
      "What we do with them: we offer them in business-to-business contact lists (LeadMarket) to companies that contact professionals about their work. We check that the email address still works.",
      "Lawful basis: legitimate interests (UK GDPR Article 6(1)(f)): supplying, and our buyers using, business contact details for business-to-business marketing.",
      "Recipients: companies that buy our business-to-business contact lists, and the service that checks email addresses for us.",
      "How long: while we offer them, checking them again about every four weeks; they are deleted as soon as you opt out or ask us to erase them.",
      `Your rights: you may ask for a copy of them, have them corrected or erased, object to their use at any time, and complain to the Information Commissioner's Office (ico.org.uk). Write to ${seller.sellerPrivacyEmail}.`,
      "",
      `To opt out, open this link (it works for ${notice.validDays} days) and press the button: we erase your details and never add them again.`,
      notice.optOutUrl,
    ].join("\n"),
  };
}
