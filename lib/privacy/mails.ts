import "server-only";
import type { Mail } from "@/lib/mail";
import { getPackage } from "@/lib/packages";
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
