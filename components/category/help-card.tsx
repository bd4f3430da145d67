import { MessageSquareIcon } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";

export function HelpCard() {
  return (
    <aside
      aria-labelledby="help-title"
      className="rounded-2xl border bg-secondary p-6 text-secondary-foreground"
    >
      <MessageSquareIcon className="size-6" aria-hidden="true" />
      <h2 id="help-title" className="mt-3 font-semibold">
        Need a different audience?
      </h2>
      <p className="mt-1 text-sm">
        Tell us the platforms, industry and roles you need. We reply to custom requests within 24 hours.
      </p>
      {/* No prefetch: the header's logo prefetches the home page already. */}
      <Button asChild variant="outline" className="mt-4 w-full">
        <Link href="/#custom-request" prefetch={false}>
          Request Custom Leads
        </Link>
      </Button>
    </aside>
  );
}
