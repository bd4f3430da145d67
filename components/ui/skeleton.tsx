import * as React from "react";
import { clsx } from "clsx";

/**
 * Decorative loading placeholder (hidden from assistive tech; pair with a Spinner or aria-busy for SR
 * users). Its ui-skeleton class (app/globals.css, components layer) gives way to a className given.
 */
function Skeleton({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div data-slot="skeleton" aria-hidden="true" className={clsx("ui-skeleton", className)} {...props} />
  );
}

export { Skeleton };
