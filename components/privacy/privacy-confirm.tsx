"use client";

import { ShieldCheck } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { HttpError } from "@/lib/client/fetcher";
import { usePrivacyConfirm } from "@/lib/client/use-privacy";
import type { PrivacyConfirmAnswer, PrivacyKind } from "@/lib/schemas/privacy";

function Done({ answer }: { answer: PrivacyConfirmAnswer }) {
  const text =
    answer.kind === "erasure"
      ? "Your data has been erased. Every lead record with your email address is deleted, and the address is blocked from future imports."
      : "Your access report is on its way: a mail lists every record we hold with your email address.";
  return (
    <p className="rounded-lg border bg-muted/40 p-4 text-sm" role="status">
      {answer.state === "already_completed" ? "This request was already confirmed. " : ""}
      {text}
    </p>
  );
}

/**
 * Runs a request only on a click: mail scanners that open links must not erase anyone. `kind` is
 * read from the link for the labels only; the server decides from its own record.
 */
export function PrivacyConfirm({ token, kind }: { token: string; kind: PrivacyKind | null }) {
  const confirm = usePrivacyConfirm();
  if (confirm.data) return <Done answer={confirm.data} />;
  const error = confirm.error instanceof HttpError ? confirm.error : null;
  const message = error?.serverMessage ?? (confirm.isError ? "Please try again." : null);
  return (
    <div className="space-y-4">
      <p className="text-muted-foreground">
        {kind === "erasure"
          ? "Confirm to erase every lead record we hold with your email address. This cannot be undone."
          : kind === "access"
            ? "Confirm to receive, by mail, every record we hold with your email address."
            : "Confirm your privacy request."}
      </p>
      {message && (
        <p className="text-sm text-destructive" role="alert">
          {message}
        </p>
      )}
      <Button
        onClick={() => confirm.mutate(token)}
        disabled={confirm.isPending}
        variant={kind === "erasure" ? "destructive" : "default"}
      >
        {confirm.isPending ? <Spinner size="sm" /> : <ShieldCheck aria-hidden />}{" "}
        {kind === "erasure" ? "Erase my data" : "Confirm request"}
      </Button>
    </div>
  );
}
