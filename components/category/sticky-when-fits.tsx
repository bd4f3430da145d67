"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { clsx } from "clsx";

// Space the sticky header takes above the card (top-24).
const TOP_OFFSET_PX = 96;

/**
 * Sticks its content below the header on large screens only while it fits in the window: a card
 * taller than the window would keep its lower part (the purchase result, the download buttons)
 * out of reach at every scroll position. Not sticky until measured.
 */
export function StickyWhenFits({ className, children }: { className?: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [fits, setFits] = useState(false);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setFits(element.offsetHeight + TOP_OFFSET_PX <= window.innerHeight);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, []);

  return (
    <div
      ref={box}
      className={clsx(className, fits && "lg:sticky lg:top-24 lg:self-start")}
      data-sticky={fits}
    >
      {children}
    </div>
  );
}
