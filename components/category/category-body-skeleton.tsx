import { Skeleton } from "@/components/ui/skeleton";

// A category page's loading state: stands in below the hero for the sections and the purchase card.
export function CategoryBodySkeleton() {
  return (
    <div
      role="status"
      aria-live="polite"
      aria-label="Loading category"
      className="mx-auto grid max-w-7xl gap-10 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_380px] lg:px-8 lg:py-14"
    >
      <span className="sr-only">Loading category…</span>
      <div className="space-y-4">
        <Skeleton className="h-8 w-40" />
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-8 w-56" />
        <Skeleton className="h-40 w-full" />
      </div>
      <Skeleton className="h-[28rem] w-full rounded-2xl" />
    </div>
  );
}
