"use client";

import { CheckIcon } from "lucide-react";
import { FeatureItem } from "@/components/site/feature-item";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PACKAGES, type PackageId } from "@/lib/packages";
import { clsx } from "clsx";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });

/** The three package cards above the category grid. Clicking the selected package again clears it. */
export function PackageSelector({
  selected,
  onSelect,
}: {
  selected: PackageId | null;
  onSelect: (id: PackageId | null) => void;
}) {
  return (
    <div id="packages" className="scroll-mt-24">
      <h3 className="sr-only">Packages</h3>
      <ul className="grid gap-6 md:grid-cols-3">
        {PACKAGES.map((pkg) => {
          const isSelected = pkg.id === selected;
          return (
            <li
              key={pkg.id}
              data-package={pkg.id}
              data-selected={isSelected}
              className={clsx(
                "relative flex flex-col rounded-2xl border bg-card p-6 shadow-sm transition-shadow",
                isSelected ? "border-primary shadow-lg ring-2 ring-primary" : "hover:shadow-md",
                pkg.isPopular && !isSelected && "border-primary/40",
              )}
            >
              {pkg.isPopular ? (
                <Badge className="absolute -top-3 left-1/2 -translate-x-1/2 px-3 py-1">Most Popular</Badge>
              ) : null}
              <h4 className="text-lg font-semibold">{pkg.title}</h4>
              <p className="text-sm text-muted-foreground">{pkg.subtitle}</p>
              <p className="mt-4 flex items-baseline gap-1">
                <span className="text-4xl font-extrabold tracking-tight">{usd.format(pkg.price)}</span>
                <span className="text-sm text-muted-foreground">one-time</span>
              </p>
              <p className="mt-1 text-sm font-medium">
                {pkg.leadsLabel} leads · ${pkg.pricePerLead.toFixed(2)} per lead
              </p>
              <ul className="mt-5 flex-1 space-y-2 text-sm">
                {pkg.featureObjects.map((feature) => (
                  <FeatureItem key={feature.text} feature={feature} />
                ))}
              </ul>
              <Button
                className="mt-6 w-full"
                variant={isSelected ? "default" : "outline"}
                aria-pressed={isSelected}
                aria-label={`${isSelected ? "Selected" : "Select"}: ${pkg.title}`}
                onClick={() => onSelect(isSelected ? null : pkg.id)}
              >
                {isSelected ? (
                  <>
                    <CheckIcon aria-hidden="true" /> Selected
                  </>
                ) : (
                  "Select"
                )}
              </Button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
