import type { ReactNode } from "react";
import { getPackage } from "@/lib/packages";
import { EMAIL_QUALITY_LABELS } from "@/lib/email-quality";
import { LOCATION_NAMES } from "@/lib/location";
import type { OrderStatement } from "@/lib/orders/statement";
import { describeSegment } from "@/lib/segments/vocabularies";
import { SCREENING_DAYS } from "@/lib/schemas/category";

// The due-diligence statement of one paid order (docs/product-rules.md, "UK compliance"), one
// section per question of the ICO's checklist for a bought marketing list.

const n = (value: number) => value.toLocaleString("en-US");
const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}%` : "0%");
const span = (range: { oldest: string; newest: string } | null) =>
  range ? (range.oldest === range.newest ? range.oldest : `${range.oldest} to ${range.newest}`) : "None";

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-2 break-inside-avoid">
      <h2 className="text-lg font-semibold">{title}</h2>
      <div className="space-y-2 text-sm leading-relaxed">{children}</div>
    </section>
  );
}

function Facts({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="divide-y rounded-lg border">
      {rows.map(([label, value]) => (
        <div key={label} className="flex justify-between gap-4 px-3 py-1.5">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="text-right font-medium whitespace-pre-line">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Statement({ statement, orderKey }: { statement: OrderStatement; orderKey: string }) {
  const { order, seller, figures, optOuts } = statement;
  const notSet = (value: string) => value || "Not set";
  const segment = describeSegment(order.segment);
  const phones = figures.phones;
  return (
    <div className="space-y-6" data-testid="statement">
      <Section title="The order">
        <Facts
          rows={[
            ["Category", order.leadTitle],
            ["Package", getPackage(order.packageType)?.name ?? order.packageType],
            ["Location", LOCATION_NAMES[order.location]],
            ...(segment ? ([["Segment", segment]] as [string, string][]) : []),
            ["Email status", EMAIL_QUALITY_LABELS[order.emailQuality]],
            ["Leads in the file today", n(figures.leads)],
            ["Paid", order.paidAt.toISOString().slice(0, 10)],
          ]}
        />
      </Section>
      <Section title="Who supplied the data">
        <Facts
          rows={[
            ["Legal name", notSet(seller.sellerLegalName)],
            ["Postal address", notSet(seller.sellerAddress)],
            ["ICO registration number", notSet(seller.sellerIcoNumber)],
            ["Privacy contact", notSet(seller.sellerPrivacyEmail)],
          ]}
        />
      </Section>
      <Section title="Where the data came from">
        <table className="w-full rounded-lg border text-left" data-testid="statement-sources">
          <thead className="text-muted-foreground">
            <tr>
              <th className="px-3 py-1.5 font-normal">Source</th>
              <th className="px-3 py-1.5 text-right font-normal">Leads</th>
              <th className="px-3 py-1.5 text-right font-normal">Share</th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {figures.sources.map((row) => (
              <tr key={row.source}>
                <td className="px-3 py-1.5">{row.source}</td>
                <td className="px-3 py-1.5 text-right">{n(row.leads)}</td>
                <td className="px-3 py-1.5 text-right">{percent(row.leads, figures.leads)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Facts
          rows={[
            ["Collected", span(figures.collected)],
            ["Email last verified", span(figures.verified)],
          ]}
        />
      </Section>
      <Section title="Phone screening (TPS and CTPS)">
        {figures.ukLeads === 0 ? (
          <p>This order has no UK rows; numbers outside the UK are not on the TPS or CTPS.</p>
        ) : (
          <>
            <Facts
              rows={[
                ["UK rows", n(figures.ukLeads)],
                ["Clear at screening", n(phones.clear)],
                ["On the TPS (number left out of the file)", n(phones.tps)],
                ["On the CTPS (number left out of the file)", n(phones.ctps)],
                [`Not screened, or screened over ${SCREENING_DAYS} days ago`, n(phones.unscreened)],
                ["Not a UK number, or no valid number", n(phones.other)],
                ["Screened against registers dated", span(figures.screened)],
              ]}
            />
            <p>
              A screening holds {SCREENING_DAYS} days from the register&apos;s file date. The file&apos;s{" "}
              <code>Phone Status</code> and <code>Phone Screened At</code> columns state it for each row.
            </p>
          </>
        )}
      </Section>
      <Section title="Notices to the people in the data (UK GDPR Article 14)">
        <p data-testid="statement-notices">
          {figures.ukLeads === 0
            ? "This order has no UK rows."
            : figures.notified === figures.ukLeads
              ? `We sent each of the ${n(figures.ukLeads)} UK people in this order our Article 14 notice before their row was first sold${figures.noticesSent ? ` (${span(figures.noticesSent)})` : ""}: who we are, the source, the purpose, the lawful basis, the recipients, how long we keep the data, their rights, and a one-click opt-out.`
              : `${n(figures.notified)} of the ${n(figures.ukLeads)} UK people in this order were sent our Article 14 notice before their row was first sold${figures.noticesSent ? ` (${span(figures.noticesSent)})` : ""}; the other ${n(figures.ukLeads - figures.notified)} were sold without one (our notices were off, or the rows predate them).`}{" "}
          As the controller who receives their data, you must still give each UK person your own Article 14
          information, naming the sources above, within one month of receiving it and at the latest at your
          first communication with them.
        </p>
      </Section>
      <Section title="Lawful basis and use">
        <p>
          The data are business contact details of professionals, supplied for business-to-business marketing
          on the basis of legitimate interests (UK GDPR Article 6(1)(f)). Recipients are buyers of B2B lead
          lists. Use the data only for that purpose, keep it no longer than you need it, and honour every
          objection at once.
        </p>
      </Section>
      <Section title="Opt-outs since your purchase">
        <p data-testid="statement-opt-outs">
          {optOuts === 0
            ? "No one in this order has opted out or been erased since your purchase."
            : `${n(optOuts)} ${optOuts === 1 ? "person" : "people"} in this order opted out or ${optOuts === 1 ? "was" : "were"} erased since your purchase; their rows have left your file.`}{" "}
          The SHA-256 hashes of their emails are at{" "}
          <a className="break-all underline" href={`/api/orders/${encodeURIComponent(orderKey)}/opt-outs`}>
            /api/orders/{"{key}"}/opt-outs
          </a>
          : check it before each campaign and suppress them in your own systems.
        </p>
      </Section>
      <Section title="What you must still do">
        <ul className="list-disc space-y-1 pl-5">
          <li>
            Screen every number against the TPS and CTPS within {SCREENING_DAYS} days before you call it (PECR
            regulations 21 and 21A), and never call a number on either.
          </li>
          <li>Give each UK person the Article 14 information, as above.</li>
          <li>Suppress everyone who opts out, including the opt-outs listed for this order.</li>
          <li>Keep this statement with your records of the list.</li>
        </ul>
      </Section>
    </div>
  );
}
