import type { Metadata } from "next";
import Link from "next/link";
import { LogoMark } from "@/components/site/logo";
import { Button } from "@/components/ui/button";

export const metadata: Metadata = {
  title: "404 Page Not Found",
  robots: { index: false },
};

// Shown for every unknown path (public and admin), so it carries no site header or footer.
export default function NotFound() {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-muted/40 px-4">
      <div className="w-full max-w-md rounded-2xl border bg-card p-8 text-center shadow-sm">
        <LogoMark className="mx-auto size-10" />
        <p className="mt-6 text-5xl font-extrabold text-primary">404</p>
        <h1 className="mt-3 text-2xl font-bold">404 Page Not Found</h1>
        <p className="mt-3 text-muted-foreground">Did you forget to add the page to the router?</p>
        <Button asChild className="mt-8">
          <Link href="/">Return to Home</Link>
        </Button>
      </div>
    </main>
  );
}
