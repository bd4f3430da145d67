"use client";

import { useState } from "react";
import { RefreshCw, Send } from "lucide-react";
import { formatDateTime, formatUsd, packageLabel } from "@/components/admin/format";
import { EMAIL_QUALITY_LABELS } from "@/lib/email-quality";
import { SaleStatusBadge } from "@/components/admin/status-badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/use-toast";
import { HttpError } from "@/lib/client/fetcher";
import { useAdminSale, useSaleAction } from "@/lib/client/use-admin";
import type { SaleDetailDto } from "@/lib/schemas/admin";

function failure(error: unknown): string {
  return error instanceof HttpError ? (error.serverMessage ?? error.message) : "Please try again.";
}

function Facts({ sale }: { sale: SaleDetailDto }) {
  const received =
    sale.actuallyPaid === null
      ? null
      : `${sale.actuallyPaid} ${sale.payCurrency?.toUpperCase() ?? ""}${
          sale.actuallyPaidFiat === null ? "" : ` (${formatUsd(sale.actuallyPaidFiat)})`
        }`;
  const rows: [string, string | null][] = [
    ["Category", sale.leadTitle],
    ["Segment", sale.segment || null],
    ["Email status", EMAIL_QUALITY_LABELS[sale.emailQuality]],
    ["Excluded", sale.excluded || null],
    ["Package", `${packageLabel(sale.packageType)} (${sale.leadCount.toLocaleString("en-US")} leads)`],
    ["Price", formatUsd(sale.amount)],
    ["Received", received],
    ["Buyer email", sale.buyerEmail],
    ["Invoice ID", sale.invoiceId],
    ["Payment ID", sale.providerPaymentId],
    ["Created", formatDateTime(sale.createdAt)],
    ["Paid", sale.paidAt && formatDateTime(sale.paidAt)],
    ["Links expire", sale.downloadExpiresAt && formatDateTime(sale.downloadExpiresAt)],
    ["Receipt sent", sale.receiptSentAt && formatDateTime(sale.receiptSentAt)],
    ["Last provider check", sale.checkedAt && formatDateTime(sale.checkedAt)],
    ["Last problem", sale.lastError],
  ];
  return (
    <dl className="divide-y rounded-lg border text-sm">
      {rows
        .filter((row): row is [string, string] => row[1] !== null && row[1] !== "")
        .map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4 px-3 py-2">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="text-right font-medium break-all">{value}</dd>
          </div>
        ))}
    </dl>
  );
}

/** One order in full, with Recheck (ask the provider now) and Resend receipt. */
export function SaleDetailDialog({ saleId, onClose }: { saleId: string | null; onClose: () => void }) {
  const sale = useAdminSale(saleId);
  const recheck = useSaleAction("recheck");
  const resend = useSaleAction("resend-receipt");
  const detail = sale.data;
  // What the admin typed, for the sale it was typed for.
  const [typed, setTyped] = useState({ saleId, paymentId: "" });
  const paymentId = typed.saleId === saleId ? typed.paymentId : "";
  // No payment stored and unpaid: the admin can name the payment the buyer made for the invoice.
  const asksForPayment = !!detail && !detail.providerPaymentId && detail.paidAt === null;

  const run = (action: typeof recheck, done: string) => {
    if (!saleId) return;
    const given = action === recheck && asksForPayment ? paymentId.trim() : "";
    action.mutate(
      { id: saleId, ...(given ? { paymentId: given } : {}) },
      {
        onSuccess: () => toast({ title: done }),
        onError: (error) =>
          toast({ title: "Action failed", description: failure(error), variant: "destructive" }),
      },
    );
  };

  return (
    <Dialog open={saleId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Order details</DialogTitle>
          <DialogDescription>Order {saleId}</DialogDescription>
        </DialogHeader>
        {!detail ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading order" />
          </div>
        ) : (
          <div className="space-y-4">
            <div className="flex items-center gap-2 text-sm">
              <span className="text-muted-foreground">Status</span>
              <SaleStatusBadge status={detail.status} />
            </div>
            <Facts sale={detail} />
            {asksForPayment && (
              <div className="space-y-1.5">
                <Label htmlFor="recheck-payment-id">Payment id (NP_id) of this invoice</Label>
                <Input
                  id="recheck-payment-id"
                  value={paymentId}
                  maxLength={128}
                  onChange={(event) => setTyped({ saleId, paymentId: event.target.value })}
                  placeholder="From the buyer or the NOWPayments dashboard"
                />
              </div>
            )}
            <section aria-labelledby="sale-history" className="space-y-2">
              <h3 id="sale-history" className="text-sm font-semibold">
                Status history
              </h3>
              <ol className="space-y-1 text-sm">
                {detail.history.map((event, index) => (
                  <li key={index} className="flex justify-between gap-4">
                    <span>
                      <span className="font-medium">{event.status}</span>
                      {event.note && <span className="text-muted-foreground"> - {event.note}</span>}
                    </span>
                    <time dateTime={event.at} className="shrink-0 text-muted-foreground">
                      {formatDateTime(event.at)}
                    </time>
                  </li>
                ))}
              </ol>
            </section>
          </div>
        )}
        <DialogFooter>
          <Button
            variant="outline"
            onClick={() => run(recheck, "Order rechecked with the provider")}
            disabled={
              !detail ||
              detail.paidAt !== null ||
              (!detail.providerPaymentId && !paymentId.trim()) ||
              recheck.isPending
            }
          >
            {recheck.isPending ? <Spinner size="sm" /> : <RefreshCw aria-hidden />} Recheck
          </Button>
          <Button
            onClick={() => run(resend, "Receipt sent")}
            disabled={!detail || !detail.paidAt || !detail.buyerEmail || resend.isPending}
          >
            {resend.isPending ? <Spinner size="sm" /> : <Send aria-hidden />} Resend receipt
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
