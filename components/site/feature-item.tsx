import { CheckIcon, XIcon } from "lucide-react";
import { clsx } from "clsx";
import type { FeatureObject } from "@/lib/packages";

/** One line of a package's feature list: a check, or a cross read out as "Not included". */
export function FeatureItem({
  feature,
  align = "start",
  className,
}: {
  feature: FeatureObject;
  /** The icon beside the first line of the text, or centred on a one-line box. */
  align?: "start" | "center";
  className?: string;
}) {
  const Icon = feature.included ? CheckIcon : XIcon;
  return (
    <li
      className={clsx(
        "flex gap-2",
        align === "start" ? "items-start" : "items-center",
        !feature.included && "text-muted-foreground",
        className,
      )}
    >
      <Icon
        className={clsx("size-4 shrink-0", align === "start" && "mt-0.5", feature.included && "text-success")}
        aria-hidden="true"
      />
      <span>
        {feature.included ? null : <span className="sr-only">Not included: </span>}
        {feature.text}
      </span>
    </li>
  );
}
