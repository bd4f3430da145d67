import { LockIcon } from "lucide-react";
import { FeatureItem } from "@/components/site/feature-item";
import Link from "next/link";
import { PurchaseActions } from "@/components/category/purchase-actions";
import { Badge } from "@/components/ui/badge";
import { categoryHref, type Location } from "@/lib/location";
import { PACKAGES, type LeadPackage } from "@/lib/packages";
import { segmentQueryString, type Segment } from "@/lib/segments/vocabularies";
import { withEmailQuality, type EmailQuality } from "@/lib/email-quality";
import { cn } from "@/lib/utils";

const number = new Intl.NumberFormat("en-US");

export type PurchaseCardProps = {
  /** `count`: the leads available in `location` (in the segment, when there is one). */
  category: { _id: string; title: string; count: number };
  pkg: LeadPackage;
  location: Location;
  /** The page's segment filters (lib/segments); the order is for its leads only. */
  segment?: Segment | null;
  /** The email statuses chosen (lib/email-quality.ts); the order is for those only. */
  emailQuality?: EmailQuality;
};

/** "3,412 leads match; Starter available; Standard needs 10,000; Premium needs 20,000". */
function segmentAvailability(count: number): string {
  return [
    `${number.format(count)} leads match`,
    ...PACKAGES.map((option) =>
      count >= option.leadCount
        ? `${option.name} available`
        : `${option.name} needs ${number.format(option.leadCount)}`,
    ),
  ].join("; ");
}

/** The card for the selected package (sticky while it fits); the buying itself is PurchaseActions' job. */
export function PurchaseCard({ category, pkg, location, segment, emailQuality = "any" }: PurchaseCardProps) {
  const filters = withEmailQuality(segmentQueryString(segment), emailQuality);
  const rows = [
    { label: "Price per lead", value: `$${pkg.pricePerLead.toFixed(2)}` },
    { label: "Lead count", value: pkg.leadsLabel },
    { label: "Format", value: "CSV & Excel" },
    { label: "Delivery", value: "instant download" },
  ];
  return (
    <section
      aria-labelledby="purchase-title"
      data-testid="purchase-card"
      className="rounded-2xl border bg-card p-6 shadow-lg"
    >
      <nav aria-label="Packages" className="grid grid-cols-3 gap-1 rounded-lg bg-muted p-1">
        {PACKAGES.map((option) => (
          <Link
            key={option.id}
            href={`${categoryHref(category._id, location, option.id)}${filters ? `&${filters}` : ""}`}
            // The other packages are this same page, cached: fetched on click, not on sight.
            prefetch={false}
            replace
            scroll={false}
            aria-current={option.id === pkg.id ? "page" : undefined}
            className={cn(
              "rounded-md px-2 py-1.5 text-center text-sm font-medium transition-colors",
              option.id === pkg.id
                ? "bg-background text-foreground shadow-sm"
                : "text-muted-foreground hover:text-foreground",
            )}
          >
            {option.name}
          </Link>
        ))}
      </nav>

      <div className="mt-5 flex items-start justify-between gap-2">
        <div>
          <h2 id="purchase-title" className="text-xl font-bold">
            {pkg.title}
          </h2>
          <p className="text-sm text-muted-foreground">{pkg.subtitle}</p>
        </div>
        {pkg.isPopular ? <Badge>Most Popular</Badge> : null}
      </div>
      <p className="mt-4 flex items-baseline gap-1">
        <span className="text-4xl font-extrabold tracking-tight" data-testid="purchase-price">
          {`$${pkg.price}`}
        </span>
        <span className="text-sm text-muted-foreground">USD, one-time</span>
      </p>

      <dl className="mt-5 divide-y rounded-lg border text-sm">
        {rows.map((row) => (
          <div key={row.label} className="flex justify-between gap-4 px-3 py-2">
            <dt className="text-muted-foreground">{row.label}</dt>
            <dd className="font-medium">{row.value}</dd>
          </div>
        ))}
        <div className="flex justify-between gap-4 px-3 py-2">
          <dt className="text-muted-foreground">
            {segment ? "Available in this segment" : "Available in this category"}
          </dt>
          <dd className="font-medium">{number.format(category.count)}</dd>
        </div>
      </dl>

      {filters && (
        <p className="mt-3 text-sm" data-testid="segment-availability">
          {segmentAvailability(category.count)}
        </p>
      )}

      <h3 className="mt-5 text-sm font-semibold">Features</h3>
      <ul className="mt-2 space-y-1.5 text-sm">
        {pkg.featureObjects.map((feature) => (
          <FeatureItem key={feature.text} feature={feature} />
        ))}
      </ul>

      <div className="mt-6">
        <PurchaseActions
          key={`${category._id}:${pkg.id}:${location}:${filters}`}
          category={category}
          pkg={pkg}
          location={location}
          segment={segment}
          emailQuality={emailQuality}
        />
      </div>
      <p className="mt-4 flex items-center justify-center gap-1.5 text-xs text-muted-foreground">
        <LockIcon className="size-3.5" aria-hidden="true" />
        Secure cryptocurrency checkout
      </p>
    </section>
  );
}
