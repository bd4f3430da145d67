// The countries a list can be bought for (docs/product-rules.md, "Location"). Shared by the
// browser (the home page's choice, card titles) and the server (orders, allocation).
export const LOCATIONS = ["USA", "UK"] as const;
export type Location = (typeof LOCATIONS)[number];

/** The category filter starts on USA (docs/product-rules.md, "Location"). */
export const DEFAULT_LOCATION: Location = "USA";

export const LOCATION_NAMES: Record<Location, string> = { USA: "United States", UK: "United Kingdom" };

export function isLocation(value: unknown): value is Location {
  return typeof value === "string" && (LOCATIONS as readonly string[]).includes(value);
}

/** A `?location=` value as pages read it: anything but a known location is the default. */
export function locationFrom(value: string | string[] | null | undefined): Location {
  const first = Array.isArray(value) ? value[0] : value;
  const upper = first?.toUpperCase();
  return isLocation(upper) ? upper : DEFAULT_LOCATION;
}

/**
 * A category page's address: `package=` when one is named, `location=` only for a country other
 * than the default (the USA list's address carries no country).
 */
export function categoryHref(id: string, location: Location, pkg?: string): string {
  const query = [pkg ? `package=${pkg}` : "", location === DEFAULT_LOCATION ? "" : `location=${location}`]
    .filter(Boolean)
    .join("&");
  return query ? `/category/${id}?${query}` : `/category/${id}`;
}

/** The card and page title, '{title} Professionals - USA' (or '- UK'). */
export function listTitle(title: string, location: Location): string {
  return `${title} Professionals - ${location}`;
}
