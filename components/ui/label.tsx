"use client";

import * as React from "react";
import { Label as LabelPrimitive } from "radix-ui";

import { clsx } from "clsx";

function Label({ className, ...props }: React.ComponentProps<typeof LabelPrimitive.Root>) {
  return <LabelPrimitive.Root data-slot="label" className={clsx("ui-label", className)} {...props} />;
}

export { Label };
