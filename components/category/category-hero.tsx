import { BadgeCheckIcon, MapPinIcon, RefreshCwIcon, UsersIcon } from "lucide-react";
import { Breadcrumb } from "@/components/category/breadcrumb";
import {
  freshnessText,
  phoneScreeningText,
  sourceMixText,
  statusMixText,
} from "@/components/category/freshness";
import { StaticImage } from "@/components/ui/static-image";
import { Tooltip } from "@/components/ui/tooltip";
import { LOCATION_NAMES, listTitle, type Location } from "@/lib/location";
import type { PhoneScreening, SourceLeads, StatusMix } from "@/lib/schemas/category";

const number = new Intl.NumberFormat("en-US");

// The top of a category page for one country: its title, facts and freshness.
export function CategoryHero({
  title,
  description,
  location,
  count,
  percent,
  statusMix,
  updatedAt,
  phoneScreening,
  sourceMix,
  image,
}: {
  title: string;
  description: string;
  location: Location;
  count: number;
  percent: number;
  statusMix: StatusMix;
  updatedAt: string | null;
  /** UK only: the phones' TPS/CTPS screening. */
  phoneScreening?: PhoneScreening | null;
  /** Where the category's leads came from. */
  sourceMix: SourceLeads[];
  image: string;
}) {
  return (
    <section aria-labelledby="category-title" className="border-b bg-muted/40">
      <div className="mx-auto grid max-w-7xl items-center gap-8 px-4 py-10 sm:px-6 md:grid-cols-[1fr_auto] lg:px-8 lg:py-14">
        <div>
          <Breadcrumb title={title} />
          <h1 id="category-title" className="mt-5 text-3xl font-extrabold sm:text-4xl lg:text-5xl">
            {listTitle(title, location)}
          </h1>
          {description ? <p className="mt-4 max-w-2xl text-lg text-muted-foreground">{description}</p> : null}
          <ul className="mt-6 flex flex-wrap gap-x-6 gap-y-3 text-sm font-medium" aria-label="List facts">
            <li className="flex items-center gap-2">
              <MapPinIcon className="size-4 text-primary" aria-hidden="true" />
              {LOCATION_NAMES[location]}
            </li>
            <li>
              <Tooltip content="Every lead is checked before delivery; most were verified within the last 30 days.">
                <button
                  type="button"
                  className="flex items-center gap-2 rounded-md underline decoration-dotted underline-offset-4"
                >
                  <BadgeCheckIcon className="size-4 text-success" aria-hidden="true" />
                  100% Verified
                </button>
              </Tooltip>
            </li>
            <li className="flex items-center gap-2">
              <RefreshCwIcon className="size-4 text-primary" aria-hidden="true" />
              Updated Weekly
            </li>
            <li className="flex items-center gap-2">
              <UsersIcon className="size-4 text-primary" aria-hidden="true" />
              {number.format(count)} leads available
            </li>
          </ul>
          <p className="mt-3 text-xs text-muted-foreground" data-testid="freshness">
            {freshnessText(percent, updatedAt)}
          </p>
          <p className="mt-1 text-xs text-muted-foreground" data-testid="status-mix">
            Email status: {statusMixText(statusMix)}
          </p>
          {phoneScreening !== undefined && (
            <p className="mt-1 text-xs text-muted-foreground" data-testid="phone-screening">
              {phoneScreeningText(phoneScreening)}
            </p>
          )}
          {sourceMix.length > 0 && (
            <p className="mt-1 text-xs text-muted-foreground" data-testid="source-mix">
              Sources: {sourceMixText(sourceMix)}
            </p>
          )}
        </div>
        <div className="relative hidden aspect-[16/9] w-72 overflow-hidden rounded-2xl border shadow-lg md:block lg:w-96">
          <StaticImage src={image} alt="" fill priority className="object-cover" />
        </div>
      </div>
    </section>
  );
}
