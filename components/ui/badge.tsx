import * as React from "react";
import { cva, type VariantProps } from "class-variance-authority";

// The classes are defined in app/globals.css (components layer), so a className given here wins
// over them without class merging.
const badgeVariants = cva("ui-badge", {
  variants: {
    variant: {
      default: "ui-badge-default",
      secondary: "ui-badge-secondary",
      destructive: "ui-badge-destructive",
      outline: "ui-badge-outline",
      success: "ui-badge-success",
      warning: "ui-badge-warning",
    },
  },
  defaultVariants: {
    variant: "default",
  },
});

type BadgeProps = React.ComponentProps<"span"> & VariantProps<typeof badgeVariants>;

function Badge({ className, variant, ...props }: BadgeProps) {
  return <span data-slot="badge" className={badgeVariants({ variant, className })} {...props} />;
}

export { Badge, badgeVariants, type BadgeProps };
