"use client";

import { X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import type { ExclusionList } from "@/components/category/use-exclusion-list";
import { HttpError } from "@/lib/client/fetcher";
import { PACKAGES } from "@/lib/packages";

// "Exclude contacts I already have" on the purchase card (docs/product-rules.md, "Exclusion
// lists"): upload a list, then see which packages the leads left without it still fill. How many
// it removes is told only after payment: before, it would tell whether one address is ours.

const number = new Intl.NumberFormat("en-US");
const ACCEPT =
  ".csv,.txt,.xlsx,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

function uploadProblem(error: unknown): string {
  return error instanceof HttpError
    ? (error.serverReason ?? "The list could not be read.")
    : "The list could not be uploaded. Please try again.";
}

export function ExclusionListField({
  exclusion,
  inSegment,
}: {
  exclusion: ExclusionList;
  inSegment: boolean;
}) {
  const { list, availability } = exclusion;
  if (!list) {
    const problem = exclusion.lost ?? (exclusion.uploadError ? uploadProblem(exclusion.uploadError) : null);
    return (
      <div className="space-y-1.5" data-testid="exclusion-list">
        <Label htmlFor="exclusion-file">Exclude contacts I already have</Label>
        <Input
          id="exclusion-file"
          type="file"
          accept={ACCEPT}
          disabled={exclusion.uploading}
          aria-describedby="exclusion-hint"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) exclusion.choose(file);
          }}
        />
        <p id="exclusion-hint" className="text-xs text-muted-foreground">
          Optional. A CSV, Excel (.xlsx) or text file of emails, domains or SHA-256 hashes (up to 100,000, 10
          MB): none of them is delivered. We keep only hashes and domains, for 24 hours.
        </p>
        {exclusion.uploading && (
          <p className="flex items-center gap-2 text-xs text-muted-foreground" aria-live="polite">
            <Spinner size="sm" label="Reading" /> Reading your list…
          </p>
        )}
        {problem && (
          <p className="text-xs text-destructive" role="alert">
            {problem}
          </p>
        )}
      </div>
    );
  }
  const emails = list.emails + list.hashes;
  return (
    <div className="space-y-1.5 rounded-lg border p-3 text-sm" data-testid="exclusion-list">
      <div className="flex items-start justify-between gap-2">
        <p>
          <span className="font-medium">{list.fileName}</span>: {number.format(emails)} email
          {emails === 1 ? "" : "s"}
          {list.domains
            ? ` and ${number.format(list.domains)} domain${list.domains === 1 ? "" : "s"}`
            : ""}{" "}
          to exclude{list.ignored ? ` (${number.format(list.ignored)} cells ignored)` : ""}.
        </p>
        <Button variant="ghost" size="icon" onClick={exclusion.remove} aria-label="Remove the exclusion list">
          <X aria-hidden />
        </Button>
      </div>
      {availability ? (
        <p data-testid="exclusion-availability">
          {inSegment ? "In this segment, without" : "Without"} your contacts:{" "}
          {PACKAGES.map((pkg) =>
            availability.packages[pkg.id].available
              ? `${pkg.name} available`
              : `${pkg.name} has too few leads left`,
          ).join("; ")}
          . How many your list left out is shown with your receipt.
        </p>
      ) : exclusion.checkProblem ? (
        <p className="text-xs text-destructive" role="alert" data-testid="exclusion-problem">
          {exclusion.checkProblem}
        </p>
      ) : (
        <p className="flex items-center gap-2 text-xs text-muted-foreground" aria-live="polite">
          <Spinner size="sm" label="Counting" /> Checking what your list leaves…
        </p>
      )}
    </div>
  );
}
