import * as React from "react";
import { clsx } from "clsx";

// The ui-input class is defined in app/globals.css (components layer), so a className given here
// wins over it without class merging.
function Input({ className, type, ...props }: React.ComponentProps<"input">) {
  return <input type={type} data-slot="input" className={clsx("ui-input", className)} {...props} />;
}

export { Input };
