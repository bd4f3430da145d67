"use client";

import { useState, type FormEvent } from "react";
import { Mail } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
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
      <div className="space-y-1.5">
        <Label htmlFor="orders-email">Email you bought with</Label>
        <Input
          id="orders-email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          placeholder="you@company.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? "orders-email-error" : undefined}
        />
        {message && (
          <p id="orders-email-error" className="text-sm text-destructive" role="alert">
            {message}
          </p>
        )}
      </div>
      <Button type="submit" disabled={lookup.isPending}>
        {lookup.isPending ? <Spinner size="sm" /> : <Mail aria-hidden />} Email me a sign-in link
      </Button>
    </form>
  );
}
