"use client";

import { RotateCcw, Trash2 } from "lucide-react";
import { useState } from "react";
import { formatCount, formatDateTime, packageLabel } from "@/components/admin/format";
import { Pager } from "@/components/admin/pager";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/use-toast";
import { HttpError } from "@/lib/client/fetcher";
import { CLAIMS_PAGE_SIZE, useClaimAction, useQuarantineClaims } from "@/lib/client/use-admin-verification";
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

function ClaimCard({ categoryId, claim }: { categoryId: string; claim: QuarantineClaimDto }) {
  const release = useClaimAction("release");
  const remove = useClaimAction("delete");
  const busy = release.isPending || remove.isPending;
  const target = { categoryId, claimId: claim.claimId };
  const facts = [
    `${formatCount(claim.reported)} reported`,
    `${formatCount(claim.counted)} counted`,
    `${formatCount(claim.replaced)} replaced`,
    `${formatCount(claim.invalidConfirmed)} found invalid`,
    `${formatCount(claim.verifiedDeliverable)} confirmed deliverable`,
    `${formatCount(claim.heldForReview)} held for review`,
  ];

  return (
    <section
      className="grid gap-3 rounded-lg border p-3"
      aria-label={`Claim on order ${claim.paymentId}`}
      data-testid="quarantine-claim"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1 text-sm">
          <p className="font-medium break-all">
            Order {claim.paymentId} · {packageLabel(claim.packageType)} ({formatCount(claim.leadCount)} leads)
          </p>
          <p className="text-muted-foreground">
            {claim.buyerEmail || "No buyer email"} · claimed {formatDateTime(claim.claimedAt)}
          </p>
          <p className="text-muted-foreground">{facts.join(" · ")}</p>
          <p>
            <strong>{formatCount(claim.quarantined)}</strong> of its reported leads quarantined
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={busy}
            onClick={() =>
              release.mutate(target, {
                onSuccess: () =>
                  toast({ title: "Claim's leads released", description: `Order ${claim.paymentId}` }),
                onError: (error) =>
                  toast({ title: "Error", description: failure(error), variant: "destructive" }),
              })
            }
          >
            <RotateCcw />
            Release claim
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={busy}
            onClick={() => {
              if (
                !window.confirm(
                  `Delete the ${claim.quarantined} quarantined leads of this claim? Leads in buyers' files stay there, marked invalid. This cannot be undone.`,
                )
              )
                return;
              remove.mutate(target, {
                onSuccess: () =>
                  toast({ title: "Claim's leads deleted", description: `Order ${claim.paymentId}` }),
                onError: (error) =>
                  toast({ title: "Error", description: failure(error), variant: "destructive" }),
              });
            }}
          >
            <Trash2 />
            Delete claim&apos;s leads
          </Button>
        </div>
      </div>
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
      {claim.quarantined > claim.leads.length && (
        <p className="text-sm text-muted-foreground">
          and {formatCount(claim.quarantined - claim.leads.length)} more
        </p>
      )}
    </section>
  );
}

/** The category's quarantined leads by replacement claim: who reported what, when, with the verdicts. */
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

  return (
    <Dialog open={Boolean(category)} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>Quarantine review: {category?.title}</DialogTitle>
          <DialogDescription>
            Leads reported invalid by buyers of two different orders, by claim. Release puts a claim&apos;s
            leads back on sale; delete takes them off for good (those in buyers&apos; files stay there, marked
            invalid).
          </DialogDescription>
        </DialogHeader>
        {!claims.data ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading claims" />
          </div>
        ) : claims.data.claims.length === 0 ? (
          <p className="text-muted-foreground">No quarantined leads</p>
        ) : (
          <div className="grid gap-3">
            {claims.data.claims.map((claim) => (
              <ClaimCard key={claim.claimId} categoryId={category!._id} claim={claim} />
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
