import { ArrowRightIcon, BadgeCheckIcon, RefreshCwIcon, ShieldCheckIcon } from "lucide-react";
import { AnchorLink } from "@/components/site/anchor-link";
import { Button } from "@/components/ui/button";

const BADGES = [
  { label: "GDPR Compliant", Icon: ShieldCheckIcon },
  { label: "Verified Data", Icon: BadgeCheckIcon },
  { label: "Weekly Updates", Icon: RefreshCwIcon },
];

const SAMPLE_ROWS = [
  { name: "Sarah M.", title: "VP of Marketing", company: "Northwind", place: "Austin, TX" },
  { name: "James O.", title: "Chief Technology Officer", company: "Vertex Labs", place: "London, UK" },
  { name: "Priya K.", title: "Head of Sales", company: "Brightpath", place: "Denver, CO" },
  { name: "Tom H.", title: "HR Director", company: "Orbital", place: "Manchester, UK" },
];

export function Hero() {
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(60rem_30rem_at_15%_-10%,var(--color-secondary),transparent),radial-gradient(40rem_24rem_at_95%_10%,var(--color-accent),transparent)]"
      />
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 pt-12 pb-16 sm:px-6 md:pt-20 lg:grid-cols-[1.1fr_1fr] lg:px-8 lg:pb-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border bg-background/70 px-3 py-1 text-sm font-medium text-muted-foreground">
            <span className="size-2 rounded-full bg-success" aria-hidden="true" />
            Over 1 million verified leads
          </p>
          <h1 id="hero-title" className="mt-5 text-4xl font-extrabold sm:text-5xl lg:text-6xl">
            Verified B2B Leads for the <span className="text-primary">USA &amp; UK</span>
          </h1>
          <p className="mt-5 max-w-xl text-lg text-muted-foreground">
            Reach the decision makers who buy. Accurate contact lists of business professionals, ready to
            download the moment you order, or built to your exact brief.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Button asChild size="lg">
              <AnchorLink href="#packages">
                Explore Packages
                <ArrowRightIcon aria-hidden="true" />
              </AnchorLink>
            </Button>
            <Button asChild size="lg" variant="outline">
              <AnchorLink href="#custom-request">Request Custom Leads</AnchorLink>
            </Button>
          </div>
          <ul className="mt-8 flex flex-wrap gap-x-6 gap-y-3" aria-label="Data quality">
            {BADGES.map(({ label, Icon }) => (
              <li key={label} className="flex items-center gap-2 text-sm font-medium">
                <Icon className="size-5 text-success" aria-hidden="true" />
                {label}
              </li>
            ))}
          </ul>
        </div>

        <div aria-hidden="true" className="relative hidden md:block">
          <div className="absolute -inset-4 -z-10 rounded-3xl bg-primary/10 blur-2xl" />
          <div className="rounded-2xl border bg-card p-5 shadow-xl">
            <div className="flex items-center justify-between">
              <div>
                <p className="text-sm font-semibold">Marketing Professionals - USA</p>
                <p className="text-xs text-muted-foreground">10,000 leads · CSV &amp; Excel</p>
              </div>
              <span className="rounded-full bg-success/15 px-2.5 py-1 text-xs font-semibold text-success">
                93% accuracy
              </span>
            </div>
            <div className="mt-4 divide-y rounded-lg border text-sm">
              {SAMPLE_ROWS.map((row) => (
                <div key={row.name} className="grid grid-cols-[1fr_1.3fr] gap-2 px-3 py-2.5">
                  <div>
                    <p className="font-medium">{row.name}</p>
                    <p className="text-xs text-muted-foreground">{row.place}</p>
                  </div>
                  <div>
                    <p className="truncate">{row.title}</p>
                    <p className="text-xs text-muted-foreground">{row.company}</p>
                  </div>
                </div>
              ))}
            </div>
            <div className="mt-4 grid grid-cols-3 gap-3 text-center">
              {[
                ["1M+", "leads"],
                ["500+", "businesses"],
                ["24h", "custom reply"],
              ].map(([value, label]) => (
                <div key={label} className="rounded-lg bg-muted px-2 py-3">
                  <p className="text-lg font-bold text-primary">{value}</p>
                  <p className="text-xs text-muted-foreground">{label}</p>
                </div>
              ))}
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}
