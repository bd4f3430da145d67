import * as React from "react";
import { cva, type VariantProps } from "class-variance-authority";
import { Slot } from "@/components/ui/slot";

// The classes are defined in app/globals.css (components layer), so a className given here wins
// over them without class merging.
const buttonVariants = cva("ui-button", {
  variants: {
    variant: {
      default: "ui-button-default",
      destructive: "ui-button-destructive",
      outline: "ui-button-outline",
      secondary: "ui-button-secondary",
      ghost: "ui-button-ghost",
      link: "ui-button-link",
    },
    size: {
      default: "ui-button-md",
      sm: "ui-button-sm",
      lg: "ui-button-lg",
      icon: "ui-button-icon",
    },
  },
  defaultVariants: {
    variant: "default",
    size: "default",
  },
});

type ButtonProps = React.ComponentProps<"button"> &
  VariantProps<typeof buttonVariants> & {
    /** Render the single child element (e.g. a Next.js <Link>) with button styles instead of a <button>. */
    asChild?: boolean;
  };

function Button({ className, variant, size, asChild = false, type, ...props }: ButtonProps) {
  const Comp = asChild ? Slot : "button";
  return (
    <Comp
      data-slot="button"
      className={buttonVariants({ variant, size, className })}
      // Native buttons default to type="button" so they never submit forms by accident.
      type={asChild ? type : (type ?? "button")}
      {...props}
    />
  );
}

export { Button, buttonVariants, type ButtonProps };
