"use client";

import { useState, type FormEvent } from "react";
import { Mail } from "lucide-react";
import { EmailField } from "@/components/site/email-field";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useOrderLookup } from "@/lib/client/use-orders";
import { HttpError } from "@/lib/client/fetcher";

/** Find my orders: asks for a sign-in link to the orders bought with an email address. */
export function OrdersLookupForm() {
  const lookup = useOrderLookup();
  const [email, setEmail] = useState("");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    lookup.mutate({ email });
  };

  if (lookup.isSuccess) {
    return (
      <p className="rounded-lg border bg-muted/40 p-4 text-sm" role="status">
        If we have paid orders for <strong>{email}</strong>, a sign-in link is on its way to that address. It
        works for one hour.
      </p>
    );
  }
  const error = lookup.error instanceof HttpError ? lookup.error : null;
  const message =
    error?.errors?.email ?? error?.serverMessage ?? (lookup.isError ? "Please try again." : null);
  return (
    <form onSubmit={submit} className="space-y-3">
      <EmailField
        id="orders-email"
        label="Email you bought with"
        value={email}
        onChange={setEmail}
        error={message}
      />
      <Button type="submit" disabled={lookup.isPending}>
        {lookup.isPending ? <Spinner size="sm" /> : <Mail aria-hidden />} Email me a sign-in link
      </Button>
    </form>
  );
}
