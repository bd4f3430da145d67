import * as React from "react";

import { cn } from "@/lib/utils";

/** Decorative loading placeholder (hidden from assistive tech; pair with a Spinner or aria-busy for SR users). */
function Skeleton({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden="true"
      className={cn("animate-pulse rounded-md bg-muted", className)}
      {...props}
    />
  );
}

export { Skeleton };
