"use client";

import { cloneElement, useId, useRef, useState, type ReactElement, type ReactNode } from "react";
import { clsx } from "clsx";

// A tip opens 700 ms after the pointer arrives, or at once when a tip closed less than 300 ms ago
// (the pointer moving along a row of them, or coming back): the delays of Radix's provider.
const OPEN_DELAY_MS = 700;
const SKIP_DELAY_MS = 300;
let lastClosedAt = Number.NEGATIVE_INFINITY;

/**
 * A text tip for `children` (one focusable element): shown on hover after the delay above and at
 * once on focus, hidden again with Escape. CSS shows it, so it needs no positioning script (Radix
 * Tooltip and Floating UI were 20 KB of script on every page with a tip); it opens below the trigger.
 */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactElement }) {
  const id = useId();
  const [dismissed, setDismissed] = useState(false);
  const [instant, setInstant] = useState(false);
  const enteredAt = useRef(0);
  return (
    <span
      className="group/tooltip relative inline-flex"
      data-dismissed={dismissed || undefined}
      onKeyDown={(event) => {
        if (event.key === "Escape") setDismissed(true);
      }}
      onPointerEnter={() => {
        enteredAt.current = performance.now();
        setInstant(enteredAt.current - lastClosedAt < SKIP_DELAY_MS);
      }}
      onPointerLeave={() => {
        const now = performance.now();
        // Only a tip that was showing starts the skip window.
        if (!dismissed && (instant || now - enteredAt.current >= OPEN_DELAY_MS)) lastClosedAt = now;
        setDismissed(false);
      }}
      onBlur={() => setDismissed(false)}
    >
      {cloneElement(children as ReactElement<{ "aria-describedby"?: string }>, { "aria-describedby": id })}
      <span
        role="tooltip"
        id={id}
        className={clsx(
          "pointer-events-none absolute top-full left-0 z-50 mt-2 hidden w-max max-w-[min(20rem,calc(100vw-2rem))] animate-in rounded-md bg-foreground px-3 py-1.5 text-xs text-balance text-background shadow-md fade-in-0 zoom-in-95 group-hover/tooltip:block group-hover/tooltip:fill-mode-both group-focus-within/tooltip:block group-focus-within/tooltip:delay-0 group-data-dismissed/tooltip:hidden",
          !instant && "group-hover/tooltip:delay-700",
        )}
      >
        {content}
      </span>
    </span>
  );
}
