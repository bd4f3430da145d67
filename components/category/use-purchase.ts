import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { forgetProviderReturn, readProviderReturn } from "@/components/category/provider-return";
import type { ExclusionList } from "@/components/category/use-exclusion-list";
import { toast } from "@/components/ui/use-toast";
import type { Location } from "@/lib/location";
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
import { isClosedStatus } from "@/lib/payments/status";
import type { LeadPackage } from "@/lib/packages";
import type { PaymentStatusAnswer } from "@/lib/schemas/payment";
import type { Segment } from "@/lib/segments/vocabularies";
import type { EmailQuality } from "@/lib/email-quality";

export type PurchaseProps = {
  /** `count`: the leads available in `location`. */
  category: { _id: string; title: string; count: number };
  pkg: LeadPackage;
  location: Location;
  /** Only leads of this segment fill the order (lib/segments); `category.count` is the segment's. */
  segment?: Segment | null;
  /** Only leads of these email statuses fill the order (lib/email-quality.ts); absent: any. */
  emailQuality?: EmailQuality;
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

function reportCheckFailure(): void {
  toast({
    title: "Verification Failed",
    description: "We couldn't verify your payment. Please try again later.",
    variant: "destructive",
  });
}

/**
 * The purchase's state machine: Buy Now, the payment's status (automatic checks, Check Status,
 * a provider return, a payment resumed from this session) and the one automatic download once
 * paid. The card is rendered with a key per category, package and location, so each starts afresh.
 * Buy Now sends the buyer's exclusion list, and is off while the list leaves too few leads.
 */
export function usePurchase(
  { category, pkg, location, segment, emailQuality = "any" }: PurchaseProps,
  exclusion: ExclusionList,
) {
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
  const unavailable = category.count < pkg.leadCount || exclusion.tooFew(pkg.id);
  // False in the server render: Buy Now stays disabled until the click handler exists.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

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
        ...(segment ? { segment } : {}),
        ...(emailQuality !== "any" ? { emailQuality } : {}),
        ...(email.trim() ? { email: email.trim() } : {}),
        ...(exclusion.list ? { suppressionListId: exclusion.list.suppressionListId } : {}),
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
          if (error instanceof HttpError && error.status === 404) exclusion.remove();
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

  return {
    phase,
    payment,
    status,
    polling,
    unavailable,
    exclusion,
    hydrated,
    email,
    setEmail,
    emailError,
    createError,
    creating: createPayment.isPending,
    checking: manualCheck.isPending,
    buy,
    checkNow,
    reopen,
    startOver,
  };
}

export type Purchase = ReturnType<typeof usePurchase>;
