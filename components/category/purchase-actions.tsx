"use client";

import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
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
import { isClosedStatus } from "@/lib/orders/status";
import { HttpError } from "@/lib/client/fetcher";
import { paymentPollKey } from "@/lib/client/query-keys";
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
import type { PaymentStatusAnswer } from "@/lib/schemas/payment";

export type PurchaseActionsProps = {
  /** `count`: the leads available in `location`. */
  category: { _id: string; title: string; count: number };
  pkg: LeadPackage;
  location: Location;
};

// docs/product-rules.md: the buyer's page polls every 10 seconds, at most 30 times (5 minutes).
const POLL_INTERVAL_MS = 10_000;
const POLL_ATTEMPTS = 30;

type Phase = "idle" | "waiting" | "complete" | "closed";
type CheckResult = "complete" | "open" | "closed";
/** How far one run of automatic checks has got (the poll query's data). */
type PollRun = { checks: number; failureReported: boolean };
const POLL_START: PollRun = { checks: 0, failureReported: false };

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

function reportCheckFailure(): void {
  toast({
    title: "Verification Failed",
    description: "We couldn't verify your payment. Please try again later.",
    variant: "destructive",
  });
}

/**
 * Buy Now, then payment status, Check Status / Reopen Payment, and the downloads once paid.
 * Rendered with a key per category, package and location, so each card starts afresh.
 */
export function PurchaseActions({ category, pkg, location }: PurchaseActionsProps) {
  const createPayment = useCreatePayment();
  // Per-call callbacks of a mutation do not run once the card is gone, so a late answer cannot
  // download or toast on another package's card.
  const manualCheck = useMutation({ mutationFn: (paymentId: string) => fetchPaymentStatus(paymentId) });
  const [payment, setPayment] = useState<PaymentContext | null>(null);
  const [status, setStatus] = useState("pending");
  const [phase, setPhase] = useState<Phase>("idle");
  // Each run of automatic checks is its own query; Check Status starts a new run after one ran out.
  const [pollRun, setPollRun] = useState(0);
  const [email, setEmail] = useState("");
  const [createError, setCreateError] = useState<string | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  const result = useRef<HTMLDivElement>(null);
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

  /** Applies a status answer: the payment is complete (with its one download), closed, or open. */
  const settle = useCallback(
    async (paymentId: string, answer: PaymentStatusAnswer, autoDownload: boolean): Promise<CheckResult> => {
      // `paid` is the server's verdict (price covered, paid status): the card follows it.
      if (answer.paid) {
        setStatus("confirmed");
        setPhase("complete");
        // One automatic download per order across this browser's tabs, and none when coming
        // back to a page whose payment was already complete.
        if (autoDownload && (await claimAutoDownload(paymentId))) {
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
        setPhase("closed");
        return "closed";
      }
      return "open";
    },
    [category._id, pkg.leadCount],
  );

  // Automatic checks while the payment is open: each one 10 s after the previous answer, at most
  // 30 per run. A run starts with no check made (its data is POLL_START), so the first check
  // comes one interval after the run starts.
  const poll = useQuery({
    queryKey: paymentPollKey(payment?.paymentId ?? "", pollRun),
    enabled: payment !== null && phase === "waiting" && pollRun > 0,
    initialData: POLL_START,
    staleTime: Infinity,
    gcTime: 0,
    queryFn: async ({ client, queryKey, signal }): Promise<PollRun> => {
      const [, paymentId] = queryKey;
      const run = client.getQueryData<PollRun>(queryKey) ?? POLL_START;
      const checks = run.checks + 1;
      let failureReported = run.failureReported;
      try {
        const answer = await fetchPaymentStatus(paymentId, undefined, signal);
        if ((await settle(paymentId, answer, true)) !== "open") return { checks, failureReported };
      } catch (error) {
        // The card left this run (another package, or the page): nothing to report.
        if (signal.aborted) throw error;
        // A run reports a failed check once and keeps going: the next check may well succeed.
        if (!failureReported) reportCheckFailure();
        failureReported = true;
      }
      if (checks === POLL_ATTEMPTS) {
        toast({
          title: "Verification Timeout",
          description:
            "We couldn't verify your payment automatically. Please click 'Check Payment Status' to verify manually.",
          variant: "destructive",
        });
      }
      return { checks, failureReported };
    },
    refetchInterval: (query) => ((query.state.data?.checks ?? 0) < POLL_ATTEMPTS ? POLL_INTERVAL_MS : false),
    // The buyer pays in another tab: checking goes on while this one is hidden.
    refetchIntervalInBackground: true,
  });
  const polling = poll.isEnabled && poll.data.checks < POLL_ATTEMPTS;

  // On arrival: a provider return (our key, with NP_id after paying or `cancelled` after leaving
  // the invoice) is checked at once; otherwise a payment of this category and package from
  // earlier in the session is picked up again. Either way, if still open, automatic checks follow.
  useEffect(() => {
    let active = true;
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
        if (!active) return;
        if (answer && !answer.paid) {
          setStatus(answer.status);
          setPhase(isClosedStatus(answer.status) ? "closed" : "waiting");
          return;
        }
      }
      try {
        const answer = await fetchPaymentStatus(context.paymentId, back.npId ?? undefined);
        // A restored payment was complete before: no second download.
        if (active && (await settle(context.paymentId, answer, !!back.key)) === "open") setPollRun(1);
      } catch {
        // A restored payment is checked quietly; a return from the provider says it failed.
        if (active && back.key) reportCheckFailure();
      }
    };
    void resume();
    return () => {
      active = false;
    };
  }, [category._id, pkg.id, location, settle]);

  const buy = () => {
    setCreateError(null);
    setEmailError(null);
    // Opened inside the click so pop-up blockers allow it; pointed at the invoice once it exists.
    const popup = window.open("", "_blank");
    createPayment.mutate(
      {
        categoryId: category._id,
        packageType: pkg.id,
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
          setPollRun((run) => run + 1);
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
    setPayment(null);
    setStatus("pending");
    setPhase("idle");
  };

  const checkNow = () => {
    if (!payment) return;
    manualCheck.mutate(payment.paymentId, {
      onSuccess: async (answer) => {
        const outcome = await settle(payment.paymentId, answer, true);
        if (outcome === "open" && !polling) setPollRun((run) => run + 1);
      },
      onError: reportCheckFailure,
    });
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
          <Button onClick={checkNow} disabled={manualCheck.isPending} className="w-full">
            {manualCheck.isPending ? <Spinner size="sm" /> : <RefreshCw aria-hidden />} Check Status
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
