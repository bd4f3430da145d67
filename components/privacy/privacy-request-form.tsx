"use client";

import { useState, type FormEvent } from "react";
import { Mail } from "lucide-react";
import { EmailField } from "@/components/site/email-field";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { HttpError } from "@/lib/client/fetcher";
import { usePrivacyRequest } from "@/lib/client/use-privacy";
import type { PrivacyKind } from "@/lib/schemas/privacy";

const CHOICES: { kind: PrivacyKind; label: string; detail: string }[] = [
  {
    kind: "access",
    label: "Access my data",
    detail: "We mail you every record we hold with this address, and which orders delivered it.",
  },
  {
    kind: "erasure",
    label: "Erase my data",
    detail: "We delete every record with this address and never import it again.",
  },
];

/** A person asks what we hold about their email, or to be erased; they confirm by mail. */
export function PrivacyRequestForm() {
  const request = usePrivacyRequest();
  const [email, setEmail] = useState("");
  const [kind, setKind] = useState<PrivacyKind>("access");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate({ email, kind });
  };

  if (request.isSuccess) {
    return (
      <p className="rounded-lg border bg-muted/40 p-4 text-sm" role="status">
        Check your inbox: we sent a confirmation link to <strong>{email}</strong>. It works for 24 hours, and
        nothing happens until you confirm.
      </p>
    );
  }
  const error = request.error instanceof HttpError ? request.error : null;
  const message =
    error?.errors?.email ?? error?.serverReason ?? (request.isError ? "Please try again." : null);
  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Privacy request">
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">What would you like us to do?</legend>
        {CHOICES.map((choice) => (
          <label
            key={choice.kind}
            className="flex cursor-pointer gap-3 rounded-lg border p-3 has-[:checked]:border-primary"
          >
            <input
              type="radio"
              name="kind"
              value={choice.kind}
              checked={kind === choice.kind}
              onChange={() => setKind(choice.kind)}
              className="mt-1"
            />
            <span>
              <span className="block font-medium">{choice.label}</span>
              <span className="block text-sm text-muted-foreground">{choice.detail}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <EmailField
        id="privacy-email"
        label="Your email address"
        value={email}
        onChange={setEmail}
        error={message}
      />
      <Button type="submit" disabled={request.isPending}>
        {request.isPending ? <Spinner size="sm" /> : <Mail aria-hidden />} Send confirmation link
      </Button>
    </form>
  );
}
