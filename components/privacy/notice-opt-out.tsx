"use client";

import { ShieldCheck } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { HttpError } from "@/lib/client/fetcher";
import { useNoticeOptOut } from "@/lib/client/use-privacy";

/** Erases only on a click: mail scanners that open links must not erase anyone. */
export function NoticeOptOut({ token }: { token: string }) {
  const optOut = useNoticeOptOut();
  if (optOut.data) {
    return (
      <p className="rounded-lg border bg-muted/40 p-4 text-sm" role="status">
        {optOut.data.state === "already_completed" ? "You had already opted out. " : ""}
        Your details are erased, and your address is kept out of every later import.
      </p>
    );
  }
  const error = optOut.error instanceof HttpError ? optOut.error : null;
  const message = error?.serverMessage ?? (optOut.isError ? "Please try again." : null);
  return (
    <div className="space-y-4">
      {message && (
        <p className="text-sm text-destructive" role="alert">
          {message}
        </p>
      )}
      <Button onClick={() => optOut.mutate(token)} disabled={optOut.isPending} variant="destructive">
        {optOut.isPending ? <Spinner size="sm" /> : <ShieldCheck aria-hidden />} Opt out and erase my details
      </Button>
    </div>
  );
}
