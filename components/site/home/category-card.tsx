"use client";

import { ArrowRightIcon, UsersIcon } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { StaticImage } from "@/components/ui/static-image";
import { freshnessText } from "@/components/category/freshness";
import { categoryImage } from "@/lib/categories/images";
import { categoryHref, listTitle, type Location } from "@/lib/location";
import type { LeadPackage } from "@/lib/packages";
import type { CategoryDto } from "@/lib/schemas/category";

const number = new Intl.NumberFormat("en-US");

/** What the category page reads back from session storage. */
function rememberChoice(category: CategoryDto, pkg: LeadPackage): void {
  try {
    sessionStorage.setItem("currentCategory", JSON.stringify(category));
    sessionStorage.setItem("selectedPackage", pkg.id);
  } catch {
    // Storage can be unavailable (private mode, quotas); the URL still carries the choice.
  }
}

export function CategoryCard({
  category,
  index,
  pkg,
  location,
  premium,
}: {
  category: CategoryDto;
  /** The category's place in the whole catalogue: it picks the image. */
  index: number;
  pkg: LeadPackage;
  location: Location;
  premium: boolean;
}) {
  const title = listTitle(category.title, location);
  const href = categoryHref(category._id, location, pkg.id);
  const count = category.countByLocation[location];
  const short = count < pkg.leadCount;
  return (
    <li className="group flex flex-col overflow-hidden rounded-2xl border bg-card shadow-sm transition-shadow hover:shadow-lg">
      <div className="relative aspect-[16/9] overflow-hidden bg-muted">
        <StaticImage
          src={categoryImage(index)}
          alt=""
          fill
          className="object-cover transition-transform duration-500 group-hover:scale-105"
        />
        {premium ? (
          <Badge variant="warning" className="absolute top-3 right-3 px-2.5 py-1 font-bold tracking-wide">
            PREMIUM
          </Badge>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col p-5">
        <h3 className="text-lg font-semibold">{title}</h3>
        {category.description ? (
          <p className="mt-2 line-clamp-2 text-sm text-muted-foreground">{category.description}</p>
        ) : null}
        <p className="mt-3 flex items-center gap-1.5 text-sm">
          <UsersIcon className="size-4 text-primary" aria-hidden="true" />
          <span>
            <span className="font-semibold">{number.format(count)}</span> leads available
          </span>
        </p>
        <p className="mt-1 text-xs text-muted-foreground">
          {freshnessText(category.verifiedRecentlyPercentByLocation[location], category.updatedAt)}
        </p>
        {short ? (
          <p className="mt-2 text-xs text-muted-foreground">
            Fewer leads than the {pkg.name} package needs ({pkg.leadsLabel}): choose a smaller package or
            request custom leads.
          </p>
        ) : null}
        <div className="mt-auto flex flex-wrap items-end justify-between gap-3 pt-5">
          <p>
            <span className="text-2xl font-bold">{`$${pkg.price}`}</span>
            <span className="ml-1 text-sm text-muted-foreground">{pkg.name}</span>
          </p>
          {short ? (
            <Button disabled variant="secondary" className="h-auto min-h-9 min-w-0 shrink whitespace-normal">
              Not available in this category
            </Button>
          ) : (
            <Button asChild>
              <Link
                href={href}
                onClick={() => rememberChoice(category, pkg)}
                aria-label={`Buy Now: ${title}`}
              >
                Buy Now
                <ArrowRightIcon aria-hidden="true" />
              </Link>
            </Button>
          )}
        </div>
      </div>
    </li>
  );
}

export function CategoryCardSkeleton() {
  return (
    <li data-testid="category-skeleton" className="overflow-hidden rounded-2xl border bg-card shadow-sm">
      <Skeleton className="aspect-[16/9] rounded-none" />
      <div className="space-y-3 p-5">
        <Skeleton className="h-6 w-3/4" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-1/2" />
        <div className="flex justify-between pt-3">
          <Skeleton className="h-8 w-20" />
          <Skeleton className="h-9 w-28" />
        </div>
      </div>
    </li>
  );
}
