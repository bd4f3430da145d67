import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { DownloadMenu } from "@/components/orders/download-menu";
import { getPackage } from "@/lib/packages";
import { EMAIL_QUALITY_LABELS } from "@/lib/email-quality";
import { InvoiceSection } from "@/components/orders/invoice-form";
import { ClaimSummary, ReplacementClaimForm } from "@/components/orders/replacement-claim";
import { REPLACEMENT_DAYS, replacementThreshold, type OrderSummary } from "@/lib/schemas/orders";

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
const formatDate = (iso: string) => `${dateFormat.format(new Date(iso))} (UTC)`;

const STATUS_TEXT: Record<string, string> = {
  pending: "Waiting for payment",
  waiting: "Waiting for payment",
  confirming: "Payment seen, waiting for confirmations",
  partially_paid: "Partially paid",
  cancelled: "Cancelled",
  expired: "Expired unpaid",
};

/** Download links of a paid order, or why there are none. */
function Downloads({ orderKey, order, now }: { orderKey: string; order: OrderSummary; now: Date }) {
  if (!order.paidAt || !order.expiresAt) {
    return (
      <p className="text-sm text-muted-foreground">
        The downloads appear here once the payment is confirmed. This page updates when you reload it.
      </p>
    );
  }
  if (new Date(order.expiresAt) <= now) {
    return (
      <p className="text-sm" role="note">
        These download links expired on {formatDate(order.expiresAt)}. Get fresh links with{" "}
        <Link href="/orders" className="font-medium text-primary underline">
          Find my orders
        </Link>
        .
      </p>
    );
  }
  const base = `/api/leads/download/${encodeURIComponent(orderKey)}`;
  return (
    <div className="space-y-3">
      <DownloadMenu
        orderKey={orderKey}
        href={(format) => (format === "csv" ? base : `${base}?format=${format}`)}
      />
      <p className="text-sm text-muted-foreground">
        The download links work until <strong>{formatDate(order.expiresAt)}</strong>. Every download holds the
        same leads.
      </p>
    </div>
  );
}

/** The accepted claim, the claim form while the window is open, or why it closed. */
function Replacement({
  orderKey,
  order,
  paidAt,
  now,
}: {
  orderKey: string;
  order: OrderSummary;
  paidAt: string;
  now: Date;
}) {
  if (order.replacement) {
    return <ClaimSummary claim={order.replacement} claimedOn={formatDate(order.replacement.claimedAt)} />;
  }
  const closes = new Date(new Date(paidAt).getTime() + REPLACEMENT_DAYS * 24 * 3600 * 1000);
  if (closes <= now) {
    return (
      <p className="text-sm text-muted-foreground">
        Replacement claims could be filed until {formatDate(closes.toISOString())} ({REPLACEMENT_DAYS} days
        after payment); this order&apos;s window has closed.
      </p>
    );
  }
  if (!order.expiresAt || new Date(order.expiresAt) <= now) {
    return (
      <p className="text-sm text-muted-foreground">
        Get a fresh link with Find my orders to file a replacement claim (open until{" "}
        {formatDate(closes.toISOString())}).
      </p>
    );
  }
  return (
    <div className="space-y-2">
      <p className="text-sm text-muted-foreground">
        If more than 5% of these leads turn out to be invalid, claim free replacements here until{" "}
        <strong>{formatDate(closes.toISOString())}</strong>.
      </p>
      <ReplacementClaimForm
        orderKey={orderKey}
        threshold={replacementThreshold(order.leadCount)}
        leadCount={order.leadCount}
      />
    </div>
  );
}

/** The rows our checks found invalid after the sale, swapped in the file (files that heal). */
function Swaps({ swaps }: { swaps: OrderSummary["swaps"] }) {
  const n = (value: number) => value.toLocaleString("en-US");
  return (
    <section aria-labelledby="order-swaps" className="space-y-2" data-testid="order-swaps">
      <h3 id="order-swaps" className="font-semibold">
        Leads replaced after the sale
      </h3>
      <p className="text-sm text-muted-foreground">
        {n(swaps.replaced)} lead{swaps.replaced === 1 ? " was" : "s were"} found invalid after your purchase
        and replaced in your file
        {swaps.notReplaced ? ` (${n(swaps.notReplaced)} could not be replaced: the category ran short)` : ""}.
        Download the file again to get the fresh leads. This does not use your replacement claim.
      </p>
      <ul className="max-h-48 divide-y overflow-y-auto rounded-lg border text-sm">
        {swaps.latest.map((swap) => (
          <li key={swap.row} className="flex justify-between gap-4 px-3 py-1.5">
            <span>Row {n(swap.row)}</span>
            <span className="text-muted-foreground">
              {swap.replaced ? "Replaced" : "Not replaced"} on {formatDate(swap.at)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** People in the order erased since the purchase: their rows left the file; their hashes, to suppress. */
function OptOuts({ orderKey, count }: { orderKey: string; count: number }) {
  return (
    <section aria-labelledby="order-opt-outs" className="space-y-2" data-testid="order-opt-outs">
      <h3 id="order-opt-outs" className="font-semibold">
        Opt-outs since your purchase
      </h3>
      <p className="text-sm text-muted-foreground">
        {count.toLocaleString("en-US")} {count === 1 ? "person" : "people"} in this order opted out or{" "}
        {count === 1 ? "was" : "were"} erased since your purchase. Their rows have left your file;{" "}
        <a
          className="font-medium text-primary underline-offset-4 hover:underline"
          href={`/api/orders/${encodeURIComponent(orderKey)}/opt-outs`}
          download={`opt-outs-${orderKey}.json`}
        >
          download their SHA-256 hashes
        </a>{" "}
        to suppress them in your CRM.
      </p>
    </section>
  );
}

/** One order as its buyer sees it: summary, status, downloads and the replacement guarantee. */
export function OrderDetails({ orderKey, order, now }: { orderKey: string; order: OrderSummary; now: Date }) {
  const pkg = getPackage(order.packageType);
  const rows = [
    { label: "Category", value: order.categoryTitle },
    ...(order.segment ? [{ label: "Segment", value: order.segment }] : []),
    { label: "Email status", value: EMAIL_QUALITY_LABELS[order.emailQuality] },
    { label: "Package", value: pkg?.name ?? order.packageType },
    { label: "Leads", value: order.leadCount.toLocaleString("en-US") },
    { label: "Price", value: `$${order.amount.toFixed(2)} USD` },
    ...(order.paidAt ? [{ label: "Paid", value: formatDate(order.paidAt) }] : []),
  ];
  return (
    <article className="space-y-6 rounded-2xl border bg-card p-6 shadow-sm" data-testid="order-details">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-bold">
          {order.categoryTitle} - {pkg?.name ?? order.packageType}
        </h2>
        <Badge variant={order.paidAt ? "success" : "secondary"} data-testid="order-status">
          {order.paidAt ? "Paid" : (STATUS_TEXT[order.status] ?? order.status)}
        </Badge>
      </header>
      <dl className="divide-y rounded-lg border text-sm">
        {rows.map((row) => (
          <div key={row.label} className="flex justify-between gap-4 px-3 py-2">
            <dt className="text-muted-foreground">{row.label}</dt>
            <dd className="text-right font-medium">{row.value}</dd>
          </div>
        ))}
      </dl>
      {order.excluded && (
        <p className="text-sm text-muted-foreground" data-testid="order-excluded">
          {order.excluded}.
        </p>
      )}
      <section aria-labelledby="order-downloads" className="space-y-3">
        <h3 id="order-downloads" className="font-semibold">
          Downloads
        </h3>
        <Downloads orderKey={orderKey} order={order} now={now} />
        {order.paidAt && (
          <p className="text-sm">
            <a
              href={`/order/${encodeURIComponent(orderKey)}/statement`}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              Due-diligence statement
            </a>{" "}
            <span className="text-muted-foreground">
              (sources, collection and verification dates, TPS/CTPS screening, opt-outs)
            </span>
          </p>
        )}
      </section>
      {order.swaps.replaced + order.swaps.notReplaced > 0 && <Swaps swaps={order.swaps} />}
      {order.optOuts > 0 && <OptOuts orderKey={orderKey} count={order.optOuts} />}
      {order.paidAt && (
        <section aria-labelledby="order-replacement" className="space-y-2">
          <h3 id="order-replacement" className="font-semibold">
            Replacement guarantee
          </h3>
          <Replacement orderKey={orderKey} order={order} paidAt={order.paidAt} now={now} />
        </section>
      )}
      {order.paidAt && (
        <section id="invoice" aria-labelledby="order-invoice" className="space-y-2">
          <h3 id="order-invoice" className="font-semibold">
            Invoice
          </h3>
          <InvoiceSection orderKey={orderKey} invoice={order.invoice} />
        </section>
      )}
    </article>
  );
}
