import type { Metadata } from "next";
import Link from "next/link";
import { PrivacyRequestForm } from "@/components/privacy/privacy-request-form";
import { pageMetadata } from "@/components/site/metadata";

export const metadata: Metadata = pageMetadata({
  title: "Privacy requests",
  description: "See the data LeadMarket holds about your email address, or have it erased (GDPR).",
  path: "/privacy/requests",
});

export default function PrivacyRequestsPage() {
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-10 sm:px-6 lg:py-14">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold tracking-tight">Privacy requests</h1>
        <p className="text-muted-foreground">
          Is your business email in our lead lists? Ask for a copy of everything we hold about it, or have it
          erased. We mail a confirmation link to the address first, so only its owner can make the request.
          See our{" "}
          <Link href="/privacy-policy" className="font-medium text-primary underline">
            Privacy Policy
          </Link>{" "}
          for the rest of your rights.
        </p>
      </div>
      <PrivacyRequestForm />
    </div>
  );
}
