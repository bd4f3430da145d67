"use client";

import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import Link from "next/link";
import { CheckCircle2, Download, ExternalLink, FileSpreadsheet, RefreshCw, XCircle } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/use-toast";
import { DEFAULT_LOCATION, LOCATION_NAMES, type Location } from "@/lib/categories/location";
import { isDownloadKey } from "@/lib/orders/key";
import type { LeadPackage } from "@/lib/packages";
import { isClosedStatus, isPaymentComplete } from "@/lib/orders/status";
import { HttpError } from "@/lib/client/fetcher";
import {
  cancelCheckout,
  claimAutoDownload,
  downloadUrl,
  fetchPaymentStatus,
  loadPayment,
  savePayment,
  startDownload,
  useCreatePayment,
  type PaymentContext,
} from "@/lib/client/use-payment";

export type PurchaseActionsProps = {
  /** `count`: the leads available in `location`. */
  category: { _id: string; title: string; count: number };
  pkg: LeadPackage;
  location: Location;
};

// Spec section 4: polling every 10 seconds, at most 30 attempts (5 minutes).
const POLL_INTERVAL_MS = 10_000;
const POLL_ATTEMPTS = 30;

type Phase = "idle" | "waiting" | "complete" | "closed";
type CheckMode = "poll" | "manual" | "return" | "restore";
type CheckResult = "complete" | "open" | "closed" | "error";

const noSubscription = () => () => undefined;

/** What the provider's return address carries: our order key, its NP_id, and whether it was a cancel. */
type ProviderReturn = { key: string | null; npId: string | null; cancelled: boolean };

function readProviderReturn(): ProviderReturn {
  const query = new URLSearchParams(window.location.search);
  const key = query.get("order");
  const npId = query.get("NP_id");
  return {
    key: isDownloadKey(key) ? key : null,
    npId: npId && /^[A-Za-z0-9_-]{1,128}$/.test(npId) ? npId : null,
    cancelled: query.get("cancelled") === "1",
  };
}

/** Drops the return parameters from the address bar: the key stays out of history and bookmarks. */
function forgetProviderReturn(): void {
  const url = new URL(window.location.href);
  for (const name of ["order", "NP_id", "cancelled"]) url.searchParams.delete(name);
  window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
}

const CLOSED_TEXT: Record<string, string> = {
  cancelled: "The invoice was cancelled before any payment arrived. Nothing was charged.",
  expired: "The invoice expired before a payment arrived. Nothing was charged.",
};

/** Buy Now, then payment status, Check Status / Reopen Payment, and the downloads once paid. */
export function PurchaseActions({ category, pkg, location }: PurchaseActionsProps) {
  const createPayment = useCreatePayment();
  const [payment, setPayment] = useState<PaymentContext | null>(null);
  const [status, setStatus] = useState("pending");
  const [phase, setPhase] = useState<Phase>("idle");
  const [polling, setPolling] = useState(false);
  const [checking, setChecking] = useState(false);
  const [email, setEmail] = useState("");
  const [createError, setCreateError] = useState<string | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const result = useRef<HTMLDivElement>(null);
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

  // The outcome (complete or closed) replaces the buttons: bring it into view, whatever the scroll.
  // Checked once more a moment later: a returning tab may still be settling its layout and scroll
  // position when the answer arrives.
  useEffect(() => {
    if (phase !== "complete" && phase !== "closed") return;
    const reveal = () => {
      const box = result.current?.getBoundingClientRect();
      if (box && (box.top < 0 || box.bottom > window.innerHeight)) {
        result.current?.scrollIntoView({ block: "center", behavior: "auto" });
      }
    };
    reveal();
    const again = setTimeout(reveal, 500);
    return () => clearTimeout(again);
  }, [phase]);

  const check = useCallback(
    async (
      paymentId: string,
      mode: CheckMode,
      reportFailure = mode !== "restore",
      returnedPaymentId?: string,
    ): Promise<CheckResult> => {
      const started = generation.current;
      try {
        const answer = await fetchPaymentStatus(paymentId, returnedPaymentId);
        if (started !== generation.current) return "error";
        if (isPaymentComplete(answer, pkg.price)) {
          clearTimeout(timer.current);
          setPolling(false);
          setStatus("confirmed");
          setPhase("complete");
          // One automatic download per order across this browser's tabs, and none when coming
          // back to a page whose payment was already complete.
          if (mode !== "restore" && (await claimAutoDownload(paymentId))) {
            toast({ title: "Payment Complete!", description: "Your leads are downloading now." });
            startDownload(
              downloadUrl(paymentId, { categoryId: category._id, count: pkg.leadCount }),
              `leads-${paymentId}.csv`,
            );
          }
          return "complete";
        }
        setStatus(answer.status || "pending");
        if (isClosedStatus(answer.status)) {
          clearTimeout(timer.current);
          setPolling(false);
          setPhase("closed");
          return "closed";
        }
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
        const outcome = await check(paymentId, "poll", !failureReported);
        if (outcome === "error") failureReported = true;
        if (started !== generation.current || outcome === "complete" || outcome === "closed") {
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

  // On arrival: a provider return (our key, with NP_id after paying or `cancelled` after leaving
  // the invoice) is checked at once; otherwise a payment of this category and package from
  // earlier in the session is picked up again.
  useEffect(() => {
    const current = ++generation.current;
    const resume = async () => {
      const back = readProviderReturn();
      const stored = loadPayment(category._id, pkg.id, location);
      const context: PaymentContext | null = back.key
        ? {
            paymentId: back.key,
            categoryId: category._id,
            packageType: pkg.id,
            location,
            invoiceUrl: stored?.paymentId === back.key ? stored.invoiceUrl : undefined,
          }
        : stored;
      if (!context) return;
      if (back.key) {
        savePayment(context);
        forgetProviderReturn();
      }
      setPayment(context);
      setPhase("waiting");
      if (back.key && back.cancelled) {
        const answer = await cancelCheckout(back.key).catch(() => null);
        if (current !== generation.current) return;
        if (answer && !answer.paid) {
          setStatus(answer.status);
          setPhase(isClosedStatus(answer.status) ? "closed" : "waiting");
          return;
        }
      }
      const outcome = await check(
        context.paymentId,
        back.key ? "return" : "restore",
        !!back.key,
        back.npId ?? undefined,
      );
      if (outcome === "open" && current === generation.current) startPolling(context.paymentId);
    };
    void resume();
    return () => {
      generation.current += 1;
      clearTimeout(timer.current);
    };
  }, [category._id, pkg.id, location, check, startPolling]);

  const buy = () => {
    setCreateError(null);
    setEmailError(null);
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
        location,
        ...(email.trim() ? { email: email.trim() } : {}),
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
            location,
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
          const fields = error instanceof HttpError ? error.errors : undefined;
          setEmailError(fields?.email ?? null);
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

  const startOver = () => {
    generation.current += 1;
    clearTimeout(timer.current);
    setPayment(null);
    setStatus("pending");
    setPhase("idle");
  };

  const checkNow = async () => {
    if (!payment) return;
    setChecking(true);
    const outcome = await check(payment.paymentId, "manual");
    setChecking(false);
    if (!polling && outcome === "open") startPolling(payment.paymentId);
  };

  const reopen = () => {
    if (payment?.invoiceUrl) window.open(payment.invoiceUrl, "_blank", "noopener");
  };

  if (phase === "complete" && payment) {
    const links = { categoryId: category._id, count: pkg.leadCount };
    return (
      <div ref={result} className="scroll-m-4 space-y-3" data-testid="purchase-complete">
        <p className="flex items-center gap-2 font-semibold text-emerald-700" role="status">
          <CheckCircle2 className="size-5" aria-hidden /> Payment Complete!
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
        <p className="text-sm text-muted-foreground">
          Your {pkg.leadCount.toLocaleString("en-US")} leads are ready. Your{" "}
          <Link href={`/order/${payment.paymentId}`} className="font-medium text-primary underline">
            order page
          </Link>{" "}
          keeps the download links for 30 days: bookmark it.
        </p>
      </div>
    );
  }

  if (phase === "closed" && payment) {
    return (
      <div ref={result} className="scroll-m-4 space-y-3" data-testid="purchase-closed">
        <p className="flex items-center gap-2 font-semibold text-destructive" role="status">
          <XCircle className="size-5" aria-hidden />
          {status === "cancelled" ? "Payment cancelled" : "Payment not completed"}
        </p>
        <p className="text-sm text-muted-foreground">
          {CLOSED_TEXT[status] ?? `The payment provider reports this invoice as ${status}.`}
        </p>
        <Button className="w-full" onClick={startOver}>
          Start a new payment
        </Button>
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
      </div>
    );
  }

  return (
    <div className="space-y-2">
      {unavailable && (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" role="note">
          Not available: {category.title} has {category.count.toLocaleString("en-US")} leads
          {location === DEFAULT_LOCATION ? "" : ` in the ${LOCATION_NAMES[location]}`}, fewer than the{" "}
          {pkg.leadsLabel} this package includes. Choose a smaller package or request custom leads.
        </p>
      )}
      <div className="space-y-1.5">
        <Label htmlFor="buyer-email">Email me my download link</Label>
        <Input
          id="buyer-email"
          type="email"
          autoComplete="email"
          placeholder="you@company.com (optional)"
          value={email}
          maxLength={254}
          onChange={(event) => setEmail(event.target.value)}
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
