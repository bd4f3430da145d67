import { SearchXIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { SiteChrome } from "@/components/site/site-chrome";
import { Button } from "@/components/ui/button";

export const metadata: Metadata = {
  title: "404 Page Not Found",
  robots: { index: false },
};

// Shown for every unknown path (public and admin) inside the public header and footer, so a lost
// visitor can navigate on.
// Rendered into every page's payload as the root's not-found boundary, so it reads nothing per
// request (that would make the cached pages dynamic); it is cached like them (app/layout.tsx).
export default function NotFound() {
  return (
    <SiteChrome>
      <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
        <SearchXIcon className="size-12 text-muted-foreground" aria-hidden="true" />
        <h1 className="mt-5 text-3xl font-bold">404 Page Not Found</h1>
        <p className="mt-3 text-muted-foreground">Did you forget to add the page to the router?</p>
        <Button asChild className="mt-8">
          <Link href="/">Return to Home</Link>
        </Button>
      </div>
    </SiteChrome>
  );
}
