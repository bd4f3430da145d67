"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/use-toast";

// By design: the newsletter only checks the input and confirms; it makes no network call.
export function NewsletterForm() {
  const [email, setEmail] = useState("");

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email.trim() || !email.includes("@")) {
      toast({
        title: "Invalid Email",
        description: "Please enter a valid email address",
        variant: "destructive",
      });
      return;
    }
    toast({ title: "Success!", description: "You've been subscribed to our newsletter" });
    setEmail("");
  };

  return (
    <form
      onSubmit={onSubmit}
      className="flex flex-col gap-2 sm:flex-row md:flex-col lg:flex-row"
      aria-label="Newsletter"
    >
      <label htmlFor="newsletter-email" className="sr-only">
        Email address
      </label>
      <Input
        id="newsletter-email"
        type="email"
        required
        autoComplete="email"
        placeholder="you@company.com"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        className="bg-background"
      />
      <Button type="submit">Subscribe</Button>
    </form>
  );
}
