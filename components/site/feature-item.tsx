import { CheckIcon, XIcon } from "lucide-react";
import type { FeatureObject } from "@/lib/packages";
import { cn } from "@/lib/utils";

/** One line of a package's feature list: a check, or a cross read out as "Not included". */
export function FeatureItem({ feature, className }: { feature: FeatureObject; className?: string }) {
  const Icon = feature.included ? CheckIcon : XIcon;
  return (
    <li className={cn("flex items-start gap-2", !feature.included && "text-muted-foreground", className)}>
      <Icon className={cn("mt-0.5 size-4 shrink-0", feature.included && "text-success")} aria-hidden="true" />
      <span>
        {feature.included ? null : <span className="sr-only">Not included: </span>}
        {feature.text}
      </span>
    </li>
  );
}
