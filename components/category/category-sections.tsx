import { CheckCircle2Icon, ShieldCheckIcon } from "lucide-react";
import { FeatureItem } from "@/components/site/feature-item";
import { CATEGORY_BENEFITS, CATEGORY_STEPS, categoryFaq } from "@/components/category/category-content";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "@/components/ui/accordion";
import { LOCATION_NAMES, type Location } from "@/lib/location";
import type { LeadPackage } from "@/lib/packages";

const number = new Intl.NumberFormat("en-US");

function Block({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-2xl font-bold">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** The category page's sections; `sample` (the Lead Sample Preview) comes right before the FAQ. */
export function CategorySections({
  title,
  count,
  location,
  pkg,
  sample,
}: {
  title: string;
  /** The leads available in `location`. */
  count: number;
  location: Location;
  pkg: LeadPackage;
  sample: React.ReactNode;
}) {
  return (
    <>
      <Block id="about-title" title="About">
        <div className="space-y-3 text-muted-foreground">
          <p>
            This list holds {number.format(count)} verified {title} professionals in the{" "}
            {LOCATION_NAMES[location]}: the decision makers and specialists you want in your pipeline, with
            their job title, company and location. Each record is checked before delivery and the database is
            updated weekly.
          </p>
          <p>
            Use it for cold email, calling and social selling, to enrich your CRM or to size a new market
            before you commit budget to it.
          </p>
        </div>
      </Block>

      <Block id="included-title" title="What's Included">
        <p className="text-muted-foreground">
          The {pkg.title} contains {pkg.leadsLabel} leads with these fields:
        </p>
        <ul className="mt-4 grid gap-2 sm:grid-cols-2">
          {pkg.featureObjects.map((feature) => (
            <FeatureItem
              key={feature.text}
              feature={feature}
              align="center"
              className="rounded-lg border bg-card px-3 py-2 text-sm"
            />
          ))}
        </ul>
      </Block>

      <Block id="benefits-title" title="Benefits">
        <ul className="space-y-3">
          {CATEGORY_BENEFITS.map((benefit) => (
            <li key={benefit} className="flex items-start gap-3">
              <CheckCircle2Icon className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" />
              <span>{benefit}</span>
            </li>
          ))}
        </ul>
      </Block>

      <Block id="steps-title" title="How It Works">
        <ol className="grid gap-4 sm:grid-cols-2">
          {CATEGORY_STEPS.map((step, index) => (
            <li key={step.title} className="rounded-xl border bg-card p-4">
              <span className="flex size-8 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-foreground">
                {index + 1}
              </span>
              <h3 className="mt-3 font-semibold">{step.title}</h3>
              <p className="mt-1 text-sm text-muted-foreground">{step.text}</p>
            </li>
          ))}
        </ol>
      </Block>

      <section
        aria-labelledby="guarantee-title"
        className="flex gap-4 rounded-2xl border border-success/30 bg-success/5 p-6"
      >
        <ShieldCheckIcon className="size-8 shrink-0 text-success" aria-hidden="true" />
        <div>
          <h2 id="guarantee-title" className="text-xl font-bold">
            Guarantee
          </h2>
          <p className="mt-2 text-muted-foreground">
            Our data has 93% accuracy. If more than 5% of the leads you receive are invalid, we replace them
            free of charge. Just tell us which records bounced.
          </p>
        </div>
      </section>

      {sample}

      <Block id="category-faq-title" title="FAQ">
        <Accordion className="rounded-xl border bg-card px-5">
          {categoryFaq(title).map((item) => (
            <AccordionItem key={item.question} name="category-faq">
              <AccordionTrigger className="text-base">{item.question}</AccordionTrigger>
              <AccordionContent className="text-muted-foreground">{item.answer}</AccordionContent>
            </AccordionItem>
          ))}
        </Accordion>
      </Block>
    </>
  );
}
