"use client";

import { ChevronLeftIcon, ChevronRightIcon, QuoteIcon, StarIcon } from "lucide-react";
import { useCallback, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { SectionHeading } from "@/components/site/section-heading";
import { starFills } from "@/components/site/home/star-fills";
import { cn } from "@/lib/utils";

export const TESTIMONIALS = [
  {
    rating: 5,
    quote:
      "We booked 40 demos in the first month from a single Marketing list. The data was clean, current and the download took seconds.",
    name: "Sarah Mitchell",
    title: "Head of Growth, Northwind",
  },
  {
    rating: 4.8,
    quote:
      "Their custom request team built us a UK healthcare list in under a day. Bounce rates dropped below 4% compared with our old provider.",
    name: "James Okafor",
    title: "Sales Director, Vertex Labs",
  },
  {
    rating: 5,
    quote:
      "Straightforward pricing, no subscription and a replacement guarantee that actually works. LeadMarket is now part of every campaign we run.",
    name: "Priya Kapoor",
    title: "Founder, Brightpath",
  },
];

function Stars({ rating }: { rating: number }) {
  return (
    <span className="flex" aria-hidden="true">
      {starFills(rating).map((fill, index) => (
        <span key={index} className="relative size-4" data-testid="star" data-fill={fill}>
          <StarIcon className="absolute inset-0 size-4 fill-muted text-muted-foreground/40" />
          {fill > 0 && (
            <span className="absolute inset-y-0 left-0 overflow-hidden" style={{ width: `${fill * 100}%` }}>
              <StarIcon className="size-4 max-w-none fill-warning text-warning" />
            </span>
          )}
        </span>
      ))}
    </span>
  );
}

export function Testimonials() {
  const trackRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);

  // The active dot follows the scroll position, whichever way the slider was moved.
  const onScroll = useCallback(() => {
    const track = trackRef.current;
    if (!track || track.clientWidth === 0) return;
    setActive(
      Math.min(TESTIMONIALS.length - 1, Math.max(0, Math.round(track.scrollLeft / track.clientWidth))),
    );
  }, []);

  const goTo = (index: number) => {
    const track = trackRef.current;
    if (!track) return;
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    track.scrollTo({ left: index * track.clientWidth, behavior: reduced ? "auto" : "smooth" });
  };

  return (
    <section aria-labelledby="testimonials-title" className="py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="testimonials-title" eyebrow="Testimonials" title="What our customers say">
          Sales and marketing teams at more than 500 businesses build their pipeline with LeadMarket.
        </SectionHeading>

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
            {TESTIMONIALS.map((item, index) => (
              <figure
                key={item.name}
                role="group"
                aria-roledescription="slide"
                aria-label={`${index + 1} of ${TESTIMONIALS.length}`}
                className="w-full shrink-0 snap-start px-1"
              >
                <div className="h-full rounded-2xl border bg-card p-8 shadow-sm sm:p-10">
                  <QuoteIcon className="size-8 text-primary/30" aria-hidden="true" />
                  <div className="mt-4 flex items-center gap-2">
                    <Stars rating={item.rating} />
                    <p className="text-sm font-semibold">
                      <span className="sr-only">Rated </span>
                      <span data-testid="rating">{item.rating.toFixed(1)}</span>
                      <span className="sr-only"> out of 5</span>
                    </p>
                  </div>
                  <blockquote className="mt-4 text-lg leading-relaxed sm:text-xl">“{item.quote}”</blockquote>
                  <figcaption className="mt-6">
                    <p className="font-semibold">{item.name}</p>
                    <p className="text-sm text-muted-foreground">{item.title}</p>
                  </figcaption>
                </div>
              </figure>
            ))}
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
              {TESTIMONIALS.map((item, index) => (
                <button
                  key={item.name}
                  type="button"
                  aria-label={`Go to testimonial ${index + 1}`}
                  aria-current={index === active ? "true" : undefined}
                  data-active={index === active}
                  onClick={() => goTo(index)}
                  className="flex size-6 items-center justify-center rounded-full"
                >
                  <span
                    className={cn(
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
              onClick={() => goTo(Math.min(TESTIMONIALS.length - 1, active + 1))}
              disabled={active === TESTIMONIALS.length - 1}
            >
              <ChevronRightIcon aria-hidden="true" />
            </Button>
          </div>
        </div>
      </div>
    </section>
  );
}
