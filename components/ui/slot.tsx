import { cloneElement, isValidElement, type HTMLAttributes } from "react";
import { clsx } from "clsx";

/**
 * What `asChild` needs: renders its only child with the given props added (the child's own win;
 * class names add up). Five lines instead of Radix Slot's script on every page with a button; its
 * handler chaining and Slottable are not used here.
 */
export function Slot({ children, ...props }: HTMLAttributes<HTMLElement>) {
  if (!isValidElement<{ className?: string }>(children)) return null;
  const own = children.props;
  return cloneElement(children, { ...props, ...own, className: clsx(props.className, own.className) });
}
