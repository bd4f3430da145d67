import { QuoteIcon, StarIcon } from "lucide-react";
import { SectionHeading } from "@/components/site/section-heading";
import { starFills } from "@/components/site/home/star-fills";
import { TestimonialSlider } from "@/components/site/home/testimonial-slider";

const TESTIMONIALS = [
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
  return (
    <section aria-labelledby="testimonials-title" className="py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="testimonials-title" eyebrow="Testimonials" title="What our customers say">
          Sales and marketing teams at more than 500 businesses build their pipeline with LeadMarket.
        </SectionHeading>

        {/* The slides are rendered here, on the server; the slider only moves between them. */}
        <TestimonialSlider>
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
        </TestimonialSlider>
      </div>
    </section>
  );
}
