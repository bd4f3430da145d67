import {
  BadgeCheckIcon,
  DownloadIcon,
  LifeBuoyIcon,
  RefreshCwIcon,
  ShieldCheckIcon,
  TargetIcon,
} from "lucide-react";
import { SectionHeading } from "@/components/site/section-heading";

const REASONS = [
  {
    title: "93% accuracy",
    text: "Contacts are validated before delivery, and most leads were verified within the last 30 days.",
    Icon: TargetIcon,
  },
  {
    title: "Free replacement guarantee",
    text: "If more than 5% of your leads turn out invalid, we replace them free of charge.",
    Icon: LifeBuoyIcon,
  },
  {
    title: "GDPR compliant",
    text: "Business contact data collected and processed in line with GDPR, with erasure on request.",
    Icon: ShieldCheckIcon,
  },
  {
    title: "Weekly database updates",
    text: "New professionals are added and stale records retired every week, across every category.",
    Icon: RefreshCwIcon,
  },
  {
    title: "CSV & Excel, instantly",
    text: "Your list arrives as CSV and Excel through a secure download link the moment payment clears.",
    Icon: DownloadIcon,
  },
  {
    title: "Over 1 million leads",
    text: "Decision makers across the USA and UK, trusted by more than 500 businesses.",
    Icon: BadgeCheckIcon,
  },
];

// Home section 5 (our own section): why buyers choose us.
export function WhyUs() {
  return (
    <section aria-labelledby="why-us-title" className="py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="why-us-title" eyebrow="Why LeadMarket" title="Data you can build a pipeline on">
          Bad data burns budget. Ours is checked, current and backed by a replacement guarantee.
        </SectionHeading>
        <ul className="mt-14 grid gap-x-8 gap-y-10 sm:grid-cols-2 lg:grid-cols-3">
          {REASONS.map(({ title, text, Icon }) => (
            <li key={title} className="flex gap-4">
              <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-secondary text-secondary-foreground">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <div>
                <h3 className="font-semibold">{title}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
