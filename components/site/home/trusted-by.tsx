import { CompanyLogoRow } from "@/components/site/company-logos";

const STATS = [
  { value: "1M+", label: "Verified leads in our database" },
  { value: "93%", label: "Data accuracy" },
  { value: "500+", label: "Businesses trust us" },
  { value: "Weekly", label: "Database updates" },
];

// Home section 2 (our own section): our proof points and the trusted-by logo strip.
export function TrustedBy() {
  return (
    <section aria-labelledby="trusted-title" className="border-y bg-muted/40 py-12">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <h2
          id="trusted-title"
          className="text-center text-sm font-semibold tracking-wide text-muted-foreground uppercase"
        >
          Trusted by innovative companies
        </h2>
        <CompanyLogoRow label="Our customers" className="mt-8" />
        <dl className="mt-10 grid grid-cols-2 gap-6 md:grid-cols-4">
          {STATS.map((stat) => (
            // Visually the value comes first; in reading order the label introduces it.
            <div key={stat.label} className="flex flex-col-reverse text-center">
              <dt className="mt-1 text-sm text-muted-foreground">{stat.label}</dt>
              <dd className="text-3xl font-extrabold text-primary">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
