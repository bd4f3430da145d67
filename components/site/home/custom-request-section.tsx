import { ClockIcon, MailIcon, PlugIcon } from "lucide-react";
import { LazyCustomRequestForm } from "@/components/site/home/lazy-custom-request-form";

const PROMISES = [
  {
    title: "Reply within 24 hours",
    text: "A specialist reviews every request and answers within a day.",
    Icon: ClockIcon,
  },
  {
    title: "Built to your brief",
    text: "Any platform, industry, role or region: tell us who you want to reach.",
    Icon: MailIcon,
  },
  {
    title: "Direct email or CRM delivery",
    text: "Custom orders can go straight to your inbox or into your CRM.",
    Icon: PlugIcon,
  },
];

// The section's place and anchor; the form itself is the custom-request feature's component
// (CustomRequestForm), loaded as the visitor approaches.
export function CustomRequestSection() {
  return (
    <section
      id="custom-request"
      aria-labelledby="custom-request-title"
      className="scroll-mt-20 bg-muted/40 py-20"
    >
      <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-[1fr_1.4fr] lg:px-8">
        <div>
          <p className="text-sm font-semibold tracking-wide text-primary uppercase">Custom Request</p>
          <h2 id="custom-request-title" className="mt-2 text-3xl font-bold sm:text-4xl">
            Need a list we don&apos;t have yet?
          </h2>
          <p className="mt-4 text-lg text-muted-foreground">
            Request custom leads for exactly the audience you sell to. Attach your ideal customer profile or
            an existing list to enrich, and we will get back to you.
          </p>
          <ul className="mt-8 space-y-6">
            {PROMISES.map(({ title, text, Icon }) => (
              <li key={title} className="flex gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="font-semibold">{title}</h3>
                  <p className="text-sm text-muted-foreground">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
        <div className="rounded-2xl border bg-card p-6 shadow-sm sm:p-8">
          <LazyCustomRequestForm />
        </div>
      </div>
    </section>
  );
}
