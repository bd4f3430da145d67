"use client";

import { AlertTriangleIcon } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { startTransition, useEffect } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";

// The category could not be loaded (e.g. the database is unreachable): the product's error toast,
// and a way to try again without leaving the page.
export default function CategoryError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  const router = useRouter();

  useEffect(() => {
    console.error("Category page failed", error.digest ?? error.message);
    toast({
      title: "Error",
      description: "Failed to load category details. Please try again.",
      variant: "destructive",
    });
  }, [error]);

  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <AlertTriangleIcon className="size-12 text-destructive" aria-hidden="true" />
      <h1 className="mt-5 text-3xl font-bold">We couldn&apos;t load this category</h1>
      <p className="mt-3 text-muted-foreground">
        Something went wrong on our side. Please try again in a moment.
      </p>
      <div className="mt-8 flex gap-3">
        <Button
          onClick={() =>
            startTransition(() => {
              router.refresh();
              reset();
            })
          }
        >
          Try again
        </Button>
        <Button asChild variant="outline">
          <Link href="/">Return to Home</Link>
        </Button>
      </div>
    </div>
  );
}
