import Link from "next/link";
import { Download, FileSpreadsheet } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { getPackage } from "@/lib/packages";
import type { OrderSummary } from "@/lib/schemas/orders";

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
      <div className="grid gap-2 sm:grid-cols-2">
        <Button asChild className="w-full">
          <a href={base} download={`leads-${orderKey}.csv`}>
            <Download aria-hidden /> Download CSV
          </a>
        </Button>
        <Button asChild variant="outline" className="w-full">
          <a href={`${base}?format=xlsx`} download={`leads-${orderKey}.xlsx`}>
            <FileSpreadsheet aria-hidden /> Download Excel
          </a>
        </Button>
      </div>
      <p className="text-sm text-muted-foreground">
        The download links work until <strong>{formatDate(order.expiresAt)}</strong>. Every download holds the
        same leads.
      </p>
    </div>
  );
}

/** One order as its buyer sees it: summary, status, downloads and the replacement guarantee. */
export function OrderDetails({ orderKey, order, now }: { orderKey: string; order: OrderSummary; now: Date }) {
  const pkg = getPackage(order.packageType);
  const rows = [
    { label: "Category", value: order.categoryTitle },
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
      <section aria-labelledby="order-downloads" className="space-y-3">
        <h3 id="order-downloads" className="font-semibold">
          Downloads
        </h3>
        <Downloads orderKey={orderKey} order={order} now={now} />
      </section>
      {order.paidAt && (
        <section aria-labelledby="order-replacement" className="space-y-2">
          <h3 id="order-replacement" className="font-semibold">
            Replacement guarantee
          </h3>
          <p className="text-sm text-muted-foreground">
            If more than 5% of these leads turn out to be invalid, you can claim free replacements within 30
            days of payment.
          </p>
        </section>
      )}
    </article>
  );
}
