"use client";

import { ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import { clsx } from "clsx";
import { Children, useCallback, useRef, useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";

/** A horizontal scroll-snap track of full-width slides (`children`, one each), with arrows and dots. */
export function TestimonialSlider({ children }: { children: ReactNode }) {
  const count = Children.count(children);
  const trackRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);

  // The active dot follows the scroll position, whichever way the slider was moved.
  const onScroll = useCallback(() => {
    const track = trackRef.current;
    if (!track || track.clientWidth === 0) return;
    setActive(Math.min(count - 1, Math.max(0, Math.round(track.scrollLeft / track.clientWidth))));
  }, [count]);

  const goTo = (index: number) => {
    const track = trackRef.current;
    if (!track) return;
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    track.scrollTo({ left: index * track.clientWidth, behavior: reduced ? "auto" : "smooth" });
  };

  return (
    <div className="relative mx-auto mt-12 max-w-3xl">
      <div
        ref={trackRef}
        onScroll={onScroll}
        tabIndex={0}
        role="region"
        aria-roledescription="carousel"
        aria-label="Customer testimonials"
        data-testid="testimonial-track"
        className="relative flex snap-x snap-mandatory overflow-x-auto scroll-smooth rounded-2xl [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
      >
        {children}
      </div>

      <div className="mt-6 flex items-center justify-center gap-4">
        <Button
          variant="outline"
          size="icon"
          aria-label="Previous testimonial"
          onClick={() => goTo(Math.max(0, active - 1))}
          disabled={active === 0}
        >
          <ChevronLeftIcon aria-hidden="true" />
        </Button>
        <div className="flex gap-1" role="group" aria-label="Choose a testimonial">
          {Array.from({ length: count }, (_, index) => (
            <button
              key={index}
              type="button"
              aria-label={`Go to testimonial ${index + 1}`}
              aria-current={index === active ? "true" : undefined}
              data-active={index === active}
              onClick={() => goTo(index)}
              className="flex size-6 items-center justify-center rounded-full"
            >
              <span
                className={clsx(
                  "block h-2.5 rounded-full transition-all",
                  index === active ? "w-6 bg-primary" : "w-2.5 bg-muted-foreground/40",
                )}
              />
            </button>
          ))}
        </div>
        <Button
          variant="outline"
          size="icon"
          aria-label="Next testimonial"
          onClick={() => goTo(Math.min(count - 1, active + 1))}
          disabled={active === count - 1}
        >
          <ChevronRightIcon aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}
