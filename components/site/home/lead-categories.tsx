"use client";

import { RefreshCwIcon, SearchXIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { SectionHeading } from "@/components/site/section-heading";
import { CategoryCard, CategoryCardSkeleton } from "@/components/site/home/category-card";
import { PackageSelector } from "@/components/site/home/package-selector";
import { DEFAULT_LOCATION, LOCATIONS, LOCATION_NAMES, type Location } from "@/lib/location";
import { PACKAGES, getPackage, type PackageId } from "@/lib/packages";
import { HttpError } from "@/lib/client/fetcher";
import { useCategories } from "@/lib/client/use-categories";
import type { CategoryDto } from "@/lib/schemas/category";

/** By design: 6 skeleton cards while the categories load. */
export const SKELETON_CARDS = 6;

/** `initial`: the categories the server read, or null when it could not (then fetched here). */
export function LeadCategories({ initial }: { initial: CategoryDto[] | null }) {
  const { data, error, isPending } = useCategories(initial);
  const [selected, setSelected] = useState<PackageId | null>(null);
  const [location, setLocation] = useState<Location>(DEFAULT_LOCATION);
  // Buy Now uses the chosen package, or the default one while nothing is selected.
  const pkg = getPackage(selected) ?? PACKAGES[0];

  useEffect(() => {
    if (!error) return;
    // By design: a non-OK answer shows the toast; a thrown network error is only logged.
    if (error instanceof HttpError) {
      toast({
        title: "Error",
        description: "Failed to load industry categories. Please try again.",
        variant: "destructive",
      });
    } else {
      console.error("Failed to load categories", error);
    }
  }, [error]);

  // A category is offered in a country only when it has leads there; its image stays the one of
  // its place in the whole catalogue, whichever country is shown.
  const categories = (data ?? [])
    .map((category, index) => ({ category, index }))
    .filter(({ category }) => category.countByLocation[location] > 0);

  return (
    <section
      id="lead-categories"
      aria-labelledby="lead-categories-title"
      className="scroll-mt-20 bg-muted/40 py-20"
    >
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="lead-categories-title"
          eyebrow="Lead Categories"
          title="Choose a package, then your audience"
        >
          Fixed one-time prices, no subscription. Every list is verified and ready to download instantly.
        </SectionHeading>

        <div className="mt-14">
          <PackageSelector selected={selected} onSelect={setSelected} />
        </div>

        <div className="mt-16 flex flex-wrap items-center justify-between gap-4">
          <h3 className="text-2xl font-bold">Industry categories</h3>
          <div role="group" aria-label="Location" className="inline-flex rounded-lg bg-muted p-1">
            {LOCATIONS.map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={option === location}
                title={LOCATION_NAMES[option]}
                onClick={() => setLocation(option)}
                className={
                  option === location
                    ? "rounded-md bg-background px-4 py-1.5 text-sm font-medium shadow-sm"
                    : "rounded-md px-4 py-1.5 text-sm font-medium text-muted-foreground hover:text-foreground"
                }
              >
                {option}
              </button>
            ))}
          </div>
        </div>
        <p className="mt-1 text-muted-foreground">
          {selected
            ? `Showing ${pkg.title} prices: ${pkg.leadsLabel} leads for $${pkg.price}.`
            : "Select a package above to see its price on every category, or buy the Starter package directly."}
        </p>

        {isPending ? (
          <ul
            className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3"
            aria-busy="true"
            aria-label="Loading categories"
          >
            {Array.from({ length: SKELETON_CARDS }, (_, index) => (
              <CategoryCardSkeleton key={index} />
            ))}
          </ul>
        ) : categories.length === 0 ? (
          <div className="mt-8 flex flex-col items-center rounded-2xl border border-dashed bg-card px-6 py-16 text-center">
            <SearchXIcon className="size-10 text-muted-foreground" aria-hidden="true" />
            <h3 className="mt-4 text-xl font-semibold">No Lead Categories Found</h3>
            <p className="mt-2 text-muted-foreground">
              We couldn&apos;t find any lead categories in our database.
            </p>
            <Button className="mt-6" variant="outline" onClick={() => window.location.reload()}>
              <RefreshCwIcon aria-hidden="true" />
              Refresh
            </Button>
          </div>
        ) : (
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="Lead categories">
            {categories.map(({ category, index }) => (
              <CategoryCard
                key={category._id}
                category={category}
                index={index}
                pkg={pkg}
                location={location}
                premium={selected === "premium"}
              />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
