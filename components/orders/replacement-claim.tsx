"use client";

import { useState, type FormEvent } from "react";
import { RefreshCw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { HttpError } from "@/lib/client/fetcher";
import { useReplacementClaim } from "@/lib/client/use-orders";
import {
  addressesInText,
  MAX_REPORTED_ADDRESSES,
  type ReplacementAnswer,
  type ReplacementSummary,
} from "@/lib/schemas/orders";

const count = (value: number) => value.toLocaleString("en-US");
const plural = (value: number, one: string, many: string) => `${count(value)} ${value === 1 ? one : many}`;

/** The accepted claim, as the order keeps it. */
export function ClaimSummary({ claim, claimedOn }: { claim: ReplacementSummary; claimedOn: string }) {
  return (
    <div className="space-y-1 rounded-lg border bg-muted/40 p-4 text-sm" data-testid="replacement-claim">
      <p className="font-medium">
        Replacement granted on {claimedOn}: {plural(claim.replaced, "lead", "leads")} replaced.
      </p>
      <p className="text-muted-foreground">
        You reported {plural(claim.counted, "lead", "leads")} of this order as invalid; your downloads now
        hold fresh leads in their place.
        {claim.shortfall > 0 &&
          ` ${plural(claim.shortfall, "lead", "leads")} could not be replaced yet because the category ran short; our team has been notified.`}
      </p>
      {claim.heldForReview > 0 && (
        <p data-testid="held-for-review">
          {plural(claim.heldForReview, "reported lead is", "reported leads are")} held for our team&apos;s
          review before replacement.
        </p>
      )}
      {claim.declined > 0 && (
        <p data-testid="declined-after-review">
          {plural(claim.declined, "reported lead was", "reported leads were")} reviewed by our team and not
          replaced.
        </p>
      )}
    </div>
  );
}

function Result({ answer }: { answer: ReplacementAnswer }) {
  return (
    <div className="space-y-1 rounded-lg border bg-muted/40 p-4 text-sm" role="status">
      <p className="font-medium">
        Claim accepted: {plural(answer.replaced, "lead", "leads")} replaced. Download the file again to get
        them.
      </p>
      {answer.shortfall > 0 && (
        <p>
          {plural(answer.shortfall, "reported lead", "reported leads")} could not be replaced because the
          category has no more fresh leads; our team has been notified.
        </p>
      )}
      {answer.invalidConfirmed > 0 && (
        <p>Our check confirmed {plural(answer.invalidConfirmed, "address", "addresses")} invalid.</p>
      )}
      {answer.heldForReview > 0 && (
        <p data-testid="held-for-review">
          {plural(answer.heldForReview, "reported lead is", "reported leads are")} held for our team&apos;s
          review before replacement.
        </p>
      )}
      {answer.verifiedDeliverable.length > 0 && (
        <p className="text-muted-foreground">
          {plural(answer.verifiedDeliverable.length, "address was", "addresses were")} confirmed deliverable
          by our verification provider just now and did not count.
        </p>
      )}
      {answer.notInOrder.length > 0 && (
        <p className="text-muted-foreground">
          {plural(answer.notInOrder.length, "address was", "addresses were")} not delivered in this order and
          did not count.
        </p>
      )}
    </div>
  );
}

/** The buyer's claim form: paste invalid addresses or upload a CSV holding them. */
export function ReplacementClaimForm({
  orderKey,
  threshold,
  leadCount,
}: {
  orderKey: string;
  threshold: number;
  leadCount: number;
}) {
  const claim = useReplacementClaim(orderKey);
  const [text, setText] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (file && text.trim()) return setProblem("Paste addresses or choose a file, not both.");
    if (file) return claim.mutate({ file });
    const emails = addressesInText(text);
    if (emails.length === 0)
      return setProblem("No email addresses found. Paste the invalid addresses first.");
    if (emails.length > MAX_REPORTED_ADDRESSES) {
      return setProblem(`At most ${count(MAX_REPORTED_ADDRESSES)} addresses can be reported in one claim.`);
    }
    claim.mutate({ emails });
  };

  if (claim.data) return <Result answer={claim.data} />;
  const error = claim.error instanceof HttpError ? claim.error : null;
  const message =
    problem ??
    error?.serverReason ??
    (claim.isError ? "The claim could not be sent. Please try again." : null);
  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Replacement claim">
      <p className="text-sm text-muted-foreground">
        Report the addresses that bounced. When more than {count(threshold)} of the {count(leadCount)} leads
        (5%) are invalid, exactly those rows are swapped for fresh leads of the same category. One claim per
        order.
      </p>
      <div className="space-y-1.5">
        <Label htmlFor="claim-emails">Invalid email addresses</Label>
        <Textarea
          id="claim-emails"
          rows={5}
          placeholder={"one@company.com\ntwo@company.com"}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <p className="text-xs text-muted-foreground">One per line, or separated by commas or spaces.</p>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="claim-file">Or upload a CSV file (any column with email addresses)</Label>
        <Input
          id="claim-file"
          type="file"
          accept=".csv,text/csv"
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
      </div>
      {message && (
        <p className="text-sm text-destructive" role="alert">
          {message}
        </p>
      )}
      <Button type="submit" disabled={claim.isPending}>
        {claim.isPending ? <Spinner size="sm" /> : <RefreshCw aria-hidden />} Claim replacement
      </Button>
    </form>
  );
}
