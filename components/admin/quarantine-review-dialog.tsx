"use client";

import { Replace, RotateCcw, Trash2, X } from "lucide-react";
import { useState, type ReactNode } from "react";
import { formatCount, formatDateTime, packageLabel } from "@/components/admin/format";
import { Pager } from "@/components/admin/pager";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/use-toast";
import { HttpError } from "@/lib/client/fetcher";
import {
  CLAIMS_PAGE_SIZE,
  useClaimAction,
  useQuarantineClaims,
  type ClaimAction,
  type ClaimActionAnswer,
} from "@/lib/client/use-admin-verification";
import type { QuarantineClaimDto, ReviewedLeadDto } from "@/lib/schemas/admin";
import type { CategoryDto } from "@/lib/schemas/category";

const VERDICTS: Record<
  ReviewedLeadDto["verdict"],
  { label: string; variant: "destructive" | "success" | "warning" }
> = {
  invalid: { label: "Found invalid", variant: "destructive" },
  valid: { label: "Confirmed deliverable", variant: "success" },
  unconfirmed: { label: "Unconfirmed", variant: "warning" },
};

const STATUS_LABELS: Record<ReviewedLeadDto["emailStatus"], string> = {
  valid: "valid",
  accept_all: "accept-all",
  unknown: "unknown",
  invalid: "invalid",
};

function failure(error: unknown): string {
  return error instanceof HttpError ? (error.serverMessage ?? error.message) : "Please try again.";
}

const DONE: Record<ClaimAction, string> = {
  release: "Claim's flagged leads kept on sale",
  delete: "Claim's leads deleted",
  "replace-held": "Held leads replaced",
  "decline-held": "Held leads declined",
};

function outcome(answer: ClaimActionAnswer): string {
  if (answer.replaced === undefined) return "";
  const stillHeld = answer.stillHeld
    ? `, ${formatCount(answer.stillHeld)} still held (the category ran short)`
    : "";
  return `: ${formatCount(answer.replaced)} replaced${stillHeld}`;
}

type Act = (claim: QuarantineClaimDto, action: ClaimAction) => void;

type Choice = { icon: ReactNode; label: string; onClick: () => void };

/** A claim's leads of one kind and the admin's two choices for them; the second asks first. */
function ClaimChoices({
  summary,
  busy,
  plain,
  asked,
}: {
  summary: ReactNode;
  busy: boolean;
  plain: Choice;
  asked: Choice & { question: string };
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <p className="text-sm">{summary}</p>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" disabled={busy} onClick={plain.onClick}>
          {plain.icon}
          {plain.label}
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={busy}
          onClick={() => {
            if (window.confirm(`${asked.question} This cannot be undone.`)) asked.onClick();
          }}
        >
          {asked.icon}
          {asked.label}
        </Button>
      </div>
    </div>
  );
}

function ClaimCard({ claim, busy, act }: { claim: QuarantineClaimDto; busy: boolean; act: Act }) {
  const facts = [
    `${formatCount(claim.reported)} reported`,
    `${formatCount(claim.counted)} counted`,
    `${formatCount(claim.replaced)} replaced`,
    `${formatCount(claim.invalidConfirmed)} found invalid`,
    `${formatCount(claim.verifiedDeliverable)} confirmed deliverable`,
  ];

  return (
    <section
      className="grid gap-3 rounded-lg border p-3"
      aria-label={`Claim on order ${claim.paymentId}`}
      data-testid="quarantine-claim"
    >
      <div className="grid gap-1 text-sm">
        <p className="font-medium break-all">
          Order {claim.paymentId} · {packageLabel(claim.packageType)} ({formatCount(claim.leadCount)} leads)
        </p>
        <p className="text-muted-foreground">
          {claim.buyerEmail || "No buyer email"} · claimed {formatDateTime(claim.claimedAt)}
        </p>
        <p className="text-muted-foreground">{facts.join(" · ")}</p>
      </div>
      {claim.flagged > 0 && (
        <ClaimChoices
          summary={
            <>
              <strong>{formatCount(claim.flagged)}</strong> of its reported leads flagged (reported by two or
              more orders, still on sale)
            </>
          }
          busy={busy}
          plain={{ icon: <RotateCcw />, label: "Keep on sale", onClick: () => act(claim, "release") }}
          asked={{
            icon: <Trash2 />,
            label: "Delete claim's leads",
            question: `Delete the ${claim.flagged} flagged leads of this claim? Leads in buyers' files stay there, marked invalid.`,
            onClick: () => act(claim, "delete"),
          }}
        />
      )}
      {claim.heldForReview > 0 && (
        <ClaimChoices
          summary={
            <>
              <strong>{formatCount(claim.heldForReview)}</strong> of its rows held for review (beyond the 20%
              cap)
            </>
          }
          busy={busy}
          plain={{
            icon: <Replace />,
            label: "Replace held leads",
            onClick: () => act(claim, "replace-held"),
          }}
          asked={{
            icon: <X />,
            label: "Decline held leads",
            question: `Decline the ${claim.heldForReview} held rows? They stay in the buyer's file as delivered.`,
            onClick: () => act(claim, "decline-held"),
          }}
        />
      )}
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Email</TableHead>
            <TableHead>Verdict at the claim</TableHead>
            <TableHead>Status now</TableHead>
            <TableHead className="text-right">Reported by</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {claim.leads.map((lead) => (
            <TableRow key={lead.leadId}>
              <TableCell className="break-all">{lead.email}</TableCell>
              <TableCell>
                <Badge variant={VERDICTS[lead.verdict].variant}>{VERDICTS[lead.verdict].label}</Badge>
                {lead.flagged && (
                  <Badge variant="warning" className="ml-2">
                    Flagged
                  </Badge>
                )}
                {lead.held && <span className="ml-2 text-muted-foreground">held</span>}
              </TableCell>
              <TableCell>{STATUS_LABELS[lead.emailStatus]}</TableCell>
              <TableCell className="text-right">
                {lead.reportedByOrders} {lead.reportedByOrders === 1 ? "order" : "orders"}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {claim.flagged > claim.leads.length && (
        <p className="text-sm text-muted-foreground">
          and {formatCount(claim.flagged - claim.leads.length)} more
        </p>
      )}
    </section>
  );
}

/** The category's flagged and held leads by replacement claim: who reported what, when, with the verdicts. */
export function QuarantineReviewDialog({
  category,
  onOpenChange,
}: {
  category: CategoryDto | undefined;
  onOpenChange: (open: boolean) => void;
}) {
  const [paging, setPaging] = useState({ categoryId: "", page: 1 });
  const page = paging.categoryId === category?._id ? paging.page : 1;
  const claims = useQuarantineClaims(category?._id ?? null, page);
  // Held here, not in a claim's card: the card leaves when its claim is done, and a mutation's
  // callbacks never fire once the component that asked has unmounted.
  const action = useClaimAction();
  const act: Act = (claim, kind) =>
    action.mutate(
      { categoryId: category!._id, claimId: claim.claimId, action: kind },
      {
        onSuccess: (answer) =>
          toast({ title: DONE[kind], description: `Order ${claim.paymentId}${outcome(answer)}` }),
        onError: (error) => toast({ title: "Error", description: failure(error), variant: "destructive" }),
      },
    );

  return (
    <Dialog open={Boolean(category)} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>Claims review: {category?.title}</DialogTitle>
          <DialogDescription>
            Leads reported by buyers of two or more orders are flagged, by claim; they stay on sale until you
            decide. Keep on sale clears a claim&apos;s flags; delete takes its flagged leads off for good
            (those in buyers&apos; files stay there, marked invalid). Rows a claim reported beyond its 20% cap
            wait for you: replace them with fresh leads or decline them.
          </DialogDescription>
        </DialogHeader>
        {!claims.data ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading claims" />
          </div>
        ) : claims.data.claims.length === 0 ? (
          <p className="text-muted-foreground">No leads to review</p>
        ) : (
          <div className="grid gap-3">
            {claims.data.claims.map((claim) => (
              <ClaimCard key={claim.claimId} claim={claim} busy={action.isPending} act={act} />
            ))}
          </div>
        )}
        {claims.data && category && (
          <Pager
            page={page}
            pageSize={CLAIMS_PAGE_SIZE}
            total={claims.data.total}
            onPage={(next) => setPaging({ categoryId: category._id, page: next })}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
