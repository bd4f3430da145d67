"use client";

import { useEffect, useRef, type ReactNode } from "react";
import Link from "next/link";
import { CheckCircle2, ExternalLink, RefreshCw, XCircle } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { ExclusionListField } from "@/components/category/exclusion-list";
import { DownloadMenu } from "@/components/orders/download-menu";
import type { Purchase, PurchaseProps } from "@/components/category/use-purchase";
import { DEFAULT_LOCATION, LOCATION_NAMES } from "@/lib/location";
import { downloadUrl, type PaymentContext } from "@/lib/client/use-payment";

// The purchase card's four views: start (Buy Now), waiting (status, Check Status, Reopen
// Payment), complete (downloads) and closed (the invoice ended unpaid). usePurchase decides which.

const CLOSED_TEXT: Record<string, string> = {
  cancelled: "The invoice was cancelled before any payment arrived. Nothing was charged.",
  expired: "The invoice expired before a payment arrived. Nothing was charged.",
};

/**
 * An outcome replaces the buttons: it is brought into view, whatever the scroll. Checked once more
 * a moment later: a returning tab may still be settling its layout and scroll position.
 */
function Outcome({ testId, children }: { testId: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const reveal = () => {
      const rect = box.current?.getBoundingClientRect();
      if (rect && (rect.top < 0 || rect.bottom > window.innerHeight)) {
        box.current?.scrollIntoView({ block: "center", behavior: "auto" });
      }
    };
    reveal();
    const again = setTimeout(reveal, 500);
    return () => clearTimeout(again);
  }, []);
  return (
    <div ref={box} className="scroll-m-4 space-y-3" data-testid={testId}>
      {children}
    </div>
  );
}

export function PurchaseComplete({
  payment,
  category,
  pkg,
}: { payment: PaymentContext } & Pick<PurchaseProps, "category" | "pkg">) {
  const links = { categoryId: category._id, count: pkg.leadCount };
  return (
    <Outcome testId="purchase-complete">
      <p className="flex items-center gap-2 font-semibold text-emerald-700" role="status">
        <CheckCircle2 className="size-5" aria-hidden /> Payment Complete!
      </p>
      <DownloadMenu
        orderKey={payment.paymentId}
        href={(format) => downloadUrl(payment.paymentId, { ...links, format })}
      />
      <p className="text-sm text-muted-foreground">
        Your {pkg.leadCount.toLocaleString("en-US")} leads are ready. Your{" "}
        <Link href={`/order/${payment.paymentId}`} className="font-medium text-primary underline">
          order page
        </Link>{" "}
        keeps the download links for 30 days: bookmark it.
      </p>
    </Outcome>
  );
}

export function PurchaseClosed({ status, onStartOver }: { status: string; onStartOver: () => void }) {
  return (
    <Outcome testId="purchase-closed">
      <p className="flex items-center gap-2 font-semibold text-destructive" role="status">
        <XCircle className="size-5" aria-hidden />
        {status === "cancelled" ? "Payment cancelled" : "Payment not completed"}
      </p>
      <p className="text-sm text-muted-foreground">
        {CLOSED_TEXT[status] ?? `The payment provider reports this invoice as ${status}.`}
      </p>
      <Button className="w-full" onClick={onStartOver}>
        Start a new payment
      </Button>
    </Outcome>
  );
}

export function PurchaseWaiting({ purchase, payment }: { purchase: Purchase; payment: PaymentContext }) {
  const { status } = purchase;
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="text-muted-foreground">Payment status</span>
        <Badge variant={status === "pending" || status === "waiting" ? "secondary" : "warning"}>
          <span data-testid="payment-status">{status}</span>
        </Badge>
      </div>
      {purchase.polling && (
        <p className="flex items-center gap-2 text-xs text-muted-foreground" aria-live="polite">
          <Spinner size="sm" label="Checking" /> Checking your payment automatically…
        </p>
      )}
      <div className="grid gap-2 sm:grid-cols-2">
        <Button onClick={purchase.checkNow} disabled={purchase.checking} className="w-full">
          {purchase.checking ? <Spinner size="sm" /> : <RefreshCw aria-hidden />} Check Status
        </Button>
        <Button onClick={purchase.reopen} variant="outline" disabled={!payment.invoiceUrl} className="w-full">
          <ExternalLink aria-hidden /> Reopen Payment
        </Button>
      </div>
    </div>
  );
}

export function PurchaseStart({
  purchase,
  category,
  pkg,
  location,
  segment,
}: { purchase: Purchase } & PurchaseProps) {
  const { emailError, createError } = purchase;
  const tooFewInCategory = category.count < pkg.leadCount;
  return (
    <div className="space-y-2">
      {tooFewInCategory && (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" role="note">
          Not available: {category.title} has {category.count.toLocaleString("en-US")} leads
          {segment ? " in this segment" : ""}
          {location === DEFAULT_LOCATION ? "" : ` in the ${LOCATION_NAMES[location]}`}, fewer than the{" "}
          {pkg.leadsLabel} this package includes. Choose a smaller package or request custom leads.
        </p>
      )}
      {!tooFewInCategory && <ExclusionListField exclusion={purchase.exclusion} inSegment={!!segment} />}
      <div className="space-y-1.5">
        <Label htmlFor="buyer-email">Email me my download link</Label>
        <Input
          id="buyer-email"
          type="email"
          autoComplete="email"
          placeholder="you@company.com (optional)"
          value={purchase.email}
          maxLength={254}
          onChange={(event) => purchase.setEmail(event.target.value)}
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? "buyer-email-error" : "buyer-email-hint"}
        />
        {emailError ? (
          <p id="buyer-email-error" className="text-xs text-destructive">
            {emailError}
          </p>
        ) : (
          <p id="buyer-email-hint" className="text-xs text-muted-foreground">
            Optional. We send your receipt and order link there, nothing else.
          </p>
        )}
      </div>
      <Button
        className="w-full"
        size="lg"
        onClick={purchase.buy}
        disabled={!purchase.hydrated || purchase.unavailable || purchase.creating}
        aria-busy={purchase.creating}
      >
        {purchase.creating && <Spinner size="sm" />}
        {tooFewInCategory
          ? "Not available in this category"
          : purchase.unavailable
            ? "Too few leads left after your list"
            : "Buy Now"}
      </Button>
      {createError && (
        <p className="text-sm text-destructive" role="alert">
          {createError}
        </p>
      )}
    </div>
  );
}
