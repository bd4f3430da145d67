import { Skeleton } from "@/components/ui/skeleton";

// The hero above is rendered by the layout; this stands in for the rest of the page.
export default function CategoryLoading() {
  return (
    <div role="status" aria-live="polite" aria-label="Loading category">
      <span className="sr-only">Loading category…</span>
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_380px] lg:px-8">
        <div className="space-y-4">
          <Skeleton className="h-8 w-40" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-8 w-56" />
          <Skeleton className="h-40 w-full" />
        </div>
        <Skeleton className="h-[28rem] w-full rounded-2xl" />
      </div>
    </div>
  );
}
