import * as React from "react";
import { LoaderCircleIcon } from "lucide-react";

import { clsx } from "clsx";

const spinnerSizes = {
  sm: "size-4",
  default: "size-5",
  lg: "size-8",
} as const;

type SpinnerProps = Omit<React.ComponentProps<"span">, "children"> & {
  /** Text announced to screen readers (visually hidden). Default "Loading…". */
  label?: string;
  size?: keyof typeof spinnerSizes;
};

/** Accessible loading indicator: a live `role="status"` region with a visually hidden label. */
function Spinner({ className, label = "Loading…", size = "default", ...props }: SpinnerProps) {
  return (
    <span
      role="status"
      aria-live="polite"
      data-slot="spinner"
      className={clsx("inline-flex items-center justify-center text-current", className)}
      {...props}
    >
      <LoaderCircleIcon aria-hidden="true" className={clsx("animate-spin", spinnerSizes[size])} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

export { Spinner, type SpinnerProps };
