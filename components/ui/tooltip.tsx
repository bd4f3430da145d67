"use client";

import { cloneElement, useId, useState, type ReactElement, type ReactNode } from "react";

/**
 * A text tip for `children` (one focusable element): shown on hover after 700 ms and at once on
 * focus, hidden again with Escape. CSS shows it, so it needs no positioning script (Radix
 * Tooltip and Floating UI were 20 KB of script on every page with a tip); it opens below the trigger.
 */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactElement }) {
  const id = useId();
  const [dismissed, setDismissed] = useState(false);
  return (
    <span
      className="group/tooltip relative inline-flex"
      data-dismissed={dismissed || undefined}
      onKeyDown={(event) => {
        if (event.key === "Escape") setDismissed(true);
      }}
      onPointerLeave={() => setDismissed(false)}
      onBlur={() => setDismissed(false)}
    >
      {cloneElement(children as ReactElement<{ "aria-describedby"?: string }>, { "aria-describedby": id })}
      <span
        role="tooltip"
        id={id}
        className="pointer-events-none absolute top-full left-0 z-50 mt-2 hidden w-max max-w-[min(20rem,calc(100vw-2rem))] animate-in rounded-md bg-foreground px-3 py-1.5 text-xs text-balance text-background shadow-md fade-in-0 zoom-in-95 group-hover/tooltip:block group-hover/tooltip:delay-700 group-hover/tooltip:fill-mode-both group-focus-within/tooltip:block group-focus-within/tooltip:delay-0 group-data-dismissed/tooltip:hidden"
      >
        {content}
      </span>
    </span>
  );
}
