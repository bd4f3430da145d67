import { DownloadIcon, ListChecksIcon, MousePointerClickIcon, UsersIcon } from "lucide-react";
import { SectionHeading } from "@/components/site/section-heading";

const STEPS = [
  {
    title: "Choose platform",
    text: "Pick where your prospects are active: Facebook, LinkedIn, Instagram or Slack.",
    Icon: MousePointerClickIcon,
  },
  {
    title: "Choose industry and role",
    text: "Narrow the list to the industries and job roles that match your ideal customer.",
    Icon: UsersIcon,
  },
  {
    title: "Get a validated lead list",
    text: "Every contact is checked before delivery, so your campaigns reach real decision makers.",
    Icon: ListChecksIcon,
  },
  {
    title: "Download or receive it in your inbox",
    text: "Download your leads as CSV or Excel instantly, or have them delivered to your inbox.",
    Icon: DownloadIcon,
  },
];

export function HowItWorks() {
  return (
    <section id="how-it-works" aria-labelledby="how-it-works-title" className="scroll-mt-20 py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="how-it-works-title"
          eyebrow="How It Works"
          title="From target market to lead list in four steps"
        >
          No subscriptions and no long onboarding: tell us who you want to reach and start selling.
        </SectionHeading>
        <ol className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map(({ title, text, Icon }, index) => (
            <li key={title} className="relative rounded-xl border bg-card p-6 shadow-sm">
              <div className="flex items-center gap-3">
                <span className="flex size-11 items-center justify-center rounded-lg bg-primary text-primary-foreground">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <span className="text-sm font-semibold text-muted-foreground">Step {index + 1}</span>
              </div>
              <h3 className="mt-4 text-lg font-semibold">{title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
