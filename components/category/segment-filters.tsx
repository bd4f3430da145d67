import { categoryHref, type Location } from "@/lib/location";
import type { LeadPackage } from "@/lib/packages";
import type { SegmentCounts } from "@/lib/segments/counts";
import { FACET_LABELS, FACETS, valueLabel, type Segment } from "@/lib/segments/vocabularies";
import { EMAIL_QUALITIES, EMAIL_QUALITY_LABELS, type EmailQuality } from "@/lib/email-quality";

const number = new Intl.NumberFormat("en-US");

/**
 * The segment filters under the hero: a plain GET form (works without JavaScript), one native
 * disclosure per facet, each option with the leads it matches under the other filters. Options
 * matching nothing are left out unless chosen. Beside them, the email statuses the order accepts.
 */
export function SegmentFilters({
  categoryId,
  location,
  pkg,
  segment,
  emailQuality,
  counts,
}: {
  categoryId: string;
  location: Location;
  pkg: LeadPackage;
  segment: Segment | null;
  emailQuality: EmailQuality;
  counts: SegmentCounts;
}) {
  return (
    <form
      method="get"
      action={`/category/${categoryId}`}
      aria-labelledby="segment-title"
      data-testid="segment-filters"
      className="rounded-2xl border bg-card p-4 shadow-sm sm:p-5"
    >
      <input type="hidden" name="location" value={location} />
      <input type="hidden" name="package" value={pkg.id} />
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="segment-title" className="text-lg font-bold">
          Narrow the list
        </h2>
        <p className="text-sm" data-testid="segment-count" aria-live="polite">
          <strong>{number.format(counts.count)}</strong> leads match
        </p>
      </div>
      <div className="mt-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-5">
        {FACETS.map((facet) => {
          const chosen = segment?.[facet] ?? [];
          const options = Object.entries(counts.facets[facet]).filter(
            ([value, leads]) => leads > 0 || chosen.includes(value),
          );
          return (
            <details key={facet} className="rounded-md border bg-background" data-facet={facet}>
              <summary className="cursor-pointer px-3 py-2 text-sm font-medium">
                {FACET_LABELS[facet]}
                {chosen.length ? ` (${chosen.length})` : ""}
              </summary>
              <fieldset className="max-h-64 space-y-1 overflow-y-auto border-t px-3 py-2">
                <legend className="sr-only">{FACET_LABELS[facet]}</legend>
                {options.map(([value, leads]) => (
                  <label key={value} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      name={facet}
                      value={value}
                      defaultChecked={chosen.includes(value)}
                    />
                    <span>{valueLabel(value)}</span>
                    <span className="ml-auto tabular-nums text-muted-foreground">{number.format(leads)}</span>
                  </label>
                ))}
              </fieldset>
            </details>
          );
        })}
      </div>
      <label className="mt-3 flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">Email status</span>
        <select
          name="emailQuality"
          defaultValue={emailQuality}
          data-testid="email-quality"
          className="rounded-md border bg-background px-2 py-1.5"
        >
          {EMAIL_QUALITIES.map((quality) => (
            <option key={quality} value={quality}>
              {EMAIL_QUALITY_LABELS[quality]}
            </option>
          ))}
        </select>
      </label>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button
          type="submit"
          className="rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground hover:bg-primary/90"
        >
          Show matching leads
        </button>
        {(segment || emailQuality !== "any") && (
          <a href={categoryHref(categoryId, location, pkg.id)} className="text-sm underline">
            Clear filters
          </a>
        )}
      </div>
    </form>
  );
}
