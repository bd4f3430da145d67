"use client";

import type { ComponentProps } from "react";
import { handleAnchorClick } from "@/components/site/scroll";

/** An `<a href="#id">` that scrolls smoothly to its target on the same page. */
export function AnchorLink({ onClick, ...props }: ComponentProps<"a">) {
  return (
    <a
      {...props}
      onClick={(event) => {
        onClick?.(event);
        handleAnchorClick(event);
      }}
    />
  );
}
