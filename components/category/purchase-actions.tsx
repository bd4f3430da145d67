"use client";

import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { CheckCircle2, Download, ExternalLink, FileSpreadsheet, RefreshCw } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/use-toast";
import type { LeadPackage } from "@/lib/packages";
import { isPaymentComplete } from "@/lib/payments/status";
import { HttpError } from "@/lib/queries/fetcher";
import {
  downloadUrl,
  fetchPaymentStatus,
  loadPayment,
  savePayment,
  startDownload,
  useCreatePayment,
  type PaymentContext,
} from "@/lib/queries/use-payment";

export type PurchaseActionsProps = {
  category: { _id: string; title: string; count: number };
  pkg: LeadPackage;
};

// Spec section 4: polling every 10 seconds, at most 30 attempts (5 minutes).
const POLL_INTERVAL_MS = 10_000;
const POLL_ATTEMPTS = 30;

type Phase = "idle" | "waiting" | "complete";
type CheckMode = "poll" | "manual" | "return" | "restore";
type CheckResult = "complete" | "open" | "error";

const noSubscription = () => () => undefined;

function readNpId(): string | null {
  const value = new URLSearchParams(window.location.search).get("NP_id");
  return value && /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : null;
}

/** Buy Now, then payment status, Check Status / Reopen Payment, and the downloads once paid. */
export function PurchaseActions({ category, pkg }: PurchaseActionsProps) {
  const createPayment = useCreatePayment();
  const [payment, setPayment] = useState<PaymentContext | null>(null);
  const [status, setStatus] = useState("pending");
  const [phase, setPhase] = useState<Phase>("idle");
  const [polling, setPolling] = useState(false);
  const [checking, setChecking] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Bumped whenever the page's category/package changes or the component unmounts, so answers to
  // earlier checks are ignored.
  const generation = useRef(0);
  const unavailable = category.count < pkg.leadCount;
  // False in the server render: Buy Now stays disabled until the click handler exists.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

  const check = useCallback(
    async (paymentId: string, mode: CheckMode, reportFailure = mode !== "restore"): Promise<CheckResult> => {
      const started = generation.current;
      try {
        const answer = await fetchPaymentStatus(paymentId);
        if (started !== generation.current) return "error";
        if (isPaymentComplete(answer, pkg.price)) {
          clearTimeout(timer.current);
          setPolling(false);
          setStatus("confirmed");
          setPhase("complete");
          // Returning to a page whose payment was already complete shows the downloads without
          // downloading again; a payment that completes now starts the CSV download at once.
          if (mode !== "restore") {
            toast({ title: "Payment Complete!", description: "Your leads are downloading now." });
            startDownload(
              downloadUrl(paymentId, { categoryId: category._id, count: pkg.leadCount }),
              `leads-${paymentId}.csv`,
            );
          }
          return "complete";
        }
        setStatus(answer.status || "pending");
        return "open";
      } catch {
        if (started === generation.current && reportFailure) {
          toast({
            title: "Verification Failed",
            description: "We couldn't verify your payment. Please try again later.",
            variant: "destructive",
          });
        }
        return "error";
      }
    },
    [category._id, pkg.leadCount, pkg.price],
  );

  const startPolling = useCallback(
    (paymentId: string) => {
      clearTimeout(timer.current);
      setPolling(true);
      let attempts = 0;
      // A polling run reports a failed check once and keeps going: the next check may well succeed.
      let failureReported = false;
      const started = generation.current;
      const tick = async () => {
        attempts += 1;
        const result = await check(paymentId, "poll", !failureReported);
        if (result === "error") failureReported = true;
        if (started !== generation.current || result === "complete") {
          if (started === generation.current) setPolling(false);
          return;
        }
        if (attempts >= POLL_ATTEMPTS) {
          setPolling(false);
          toast({
            title: "Verification Timeout",
            description:
              "We couldn't verify your payment automatically. Please click 'Check Payment Status' to verify manually.",
            variant: "destructive",
          });
          return;
        }
        timer.current = setTimeout(tick, POLL_INTERVAL_MS);
      };
      timer.current = setTimeout(tick, POLL_INTERVAL_MS);
    },
    [check],
  );

  // On arrival: a provider return (NP_id) is verified at once; otherwise a payment of this
  // category and package from earlier in the session is picked up again.
  useEffect(() => {
    const current = ++generation.current;
    const resume = async () => {
      const npId = readNpId();
      const stored = loadPayment(category._id, pkg.id);
      const context: PaymentContext | null = npId
        ? { paymentId: npId, categoryId: category._id, packageType: pkg.id, invoiceUrl: stored?.invoiceUrl }
        : stored;
      if (!context) return;
      if (npId) savePayment(context);
      setPayment(context);
      setPhase("waiting");
      const result = await check(context.paymentId, npId ? "return" : "restore");
      if (result === "open" && current === generation.current) startPolling(context.paymentId);
    };
    void resume();
    return () => {
      generation.current += 1;
      clearTimeout(timer.current);
    };
  }, [category._id, pkg.id, check, startPolling]);

  const buy = () => {
    setCreateError(null);
    // Opened inside the click so pop-up blockers allow it; pointed at the invoice once it exists.
    const popup = window.open("", "_blank");
    createPayment.mutate(
      {
        packageType: pkg.id,
        amount: pkg.price,
        leadId: category._id,
        leadCount: pkg.leadCount,
        leadTitle: category.title,
        categoryId: category._id,
        selectedPackage: pkg.id,
      },
      {
        onSuccess: (created) => {
          if (popup) {
            popup.opener = null;
            popup.location.href = created.invoiceUrl;
          } else {
            window.open(created.invoiceUrl, "_blank", "noopener");
          }
          const context = {
            paymentId: created.paymentId,
            categoryId: category._id,
            packageType: pkg.id,
            invoiceUrl: created.invoiceUrl,
          };
          savePayment(context);
          setPayment(context);
          setStatus("pending");
          setPhase("waiting");
          toast({
            title: "Payment Initiated",
            description: "Complete the payment in the new tab. We will confirm it here automatically.",
          });
          startPolling(created.paymentId);
        },
        onError: (error) => {
          popup?.close();
          setCreateError(error instanceof HttpError ? (error.serverMessage ?? null) : null);
          toast({
            title: "Payment Error",
            description: "There was a problem initiating your payment. Please try again.",
            variant: "destructive",
          });
        },
      },
    );
  };

  const checkNow = async () => {
    if (!payment) return;
    setChecking(true);
    const result = await check(payment.paymentId, "manual");
    setChecking(false);
    if (result !== "complete" && !polling && result === "open") startPolling(payment.paymentId);
  };

  const reopen = () => {
    if (payment?.invoiceUrl) window.open(payment.invoiceUrl, "_blank", "noopener");
  };

  if (phase === "complete" && payment) {
    const links = { categoryId: category._id, count: pkg.leadCount };
    return (
      <div className="space-y-3" data-testid="purchase-complete">
        <p className="flex items-center gap-2 font-semibold text-emerald-700">
          <CheckCircle2 className="size-5" aria-hidden /> Payment Complete!
        </p>
        <p className="text-sm text-muted-foreground">
          Your {pkg.leadCount.toLocaleString("en-US")} leads are ready. The download link stays valid for 30
          days.
        </p>
        <div className="grid gap-2 sm:grid-cols-2">
          <Button asChild className="w-full">
            <a href={downloadUrl(payment.paymentId, links)} download={`leads-${payment.paymentId}.csv`}>
              <Download aria-hidden /> Download CSV
            </a>
          </Button>
          <Button asChild variant="outline" className="w-full">
            <a
              href={downloadUrl(payment.paymentId, { ...links, format: "xlsx" })}
              download={`leads-${payment.paymentId}.xlsx`}
            >
              <FileSpreadsheet aria-hidden /> Download Excel
            </a>
          </Button>
        </div>
        <p className="text-xs break-all text-muted-foreground">Payment ID: {payment.paymentId}</p>
      </div>
    );
  }

  if (payment) {
    return (
      <div className="space-y-3">
        <div className="flex items-center justify-between gap-2 text-sm">
          <span className="text-muted-foreground">Payment status</span>
          <Badge variant={status === "pending" || status === "waiting" ? "secondary" : "warning"}>
            <span data-testid="payment-status">{status}</span>
          </Badge>
        </div>
        {polling && (
          <p className="flex items-center gap-2 text-xs text-muted-foreground" aria-live="polite">
            <Spinner size="sm" label="Checking" /> Checking your payment automatically…
          </p>
        )}
        <div className="grid gap-2 sm:grid-cols-2">
          <Button onClick={checkNow} disabled={checking} className="w-full">
            {checking ? <Spinner size="sm" /> : <RefreshCw aria-hidden />} Check Status
          </Button>
          <Button onClick={reopen} variant="outline" disabled={!payment.invoiceUrl} className="w-full">
            <ExternalLink aria-hidden /> Reopen Payment
          </Button>
        </div>
        <p className="text-xs break-all text-muted-foreground">Payment ID: {payment.paymentId}</p>
      </div>
    );
  }

  return (
    <div className="space-y-2">
      {unavailable && (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" role="note">
          Not available: {category.title} has {category.count.toLocaleString("en-US")} leads, fewer than the{" "}
          {pkg.leadsLabel} this package includes. Choose a smaller package or request custom leads.
        </p>
      )}
      <Button
        className="w-full"
        size="lg"
        onClick={buy}
        disabled={!hydrated || unavailable || createPayment.isPending}
        aria-busy={createPayment.isPending}
      >
        {createPayment.isPending && <Spinner size="sm" />}
        {unavailable ? "Not available in this category" : "Buy Now"}
      </Button>
      {createError && (
        <p className="text-sm text-destructive" role="alert">
          {createError}
        </p>
      )}
    </div>
  );
}
