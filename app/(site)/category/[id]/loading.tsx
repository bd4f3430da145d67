import { Skeleton } from "@/components/ui/skeleton";

// Stands in for a category page while it renders (its first request, before it is cached).
export default function CategoryLoading() {
  return (
    <div role="status" aria-live="polite" aria-label="Loading category">
      <span className="sr-only">Loading category…</span>
      <div className="border-b bg-muted/40">
        <div className="mx-auto max-w-7xl space-y-4 px-4 py-10 sm:px-6 lg:px-8 lg:py-14">
          <Skeleton className="h-5 w-64" />
          <Skeleton className="h-12 w-full max-w-xl" />
          <Skeleton className="h-6 w-full max-w-md" />
        </div>
      </div>
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
