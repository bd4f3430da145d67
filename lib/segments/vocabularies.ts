import type { Location } from "../location";

// The segment facets' values (docs/product-rules.md, "Segments"): the API's values, the stored
// leads.facet_* columns' values and the rollup's keys. The SQL functions of the segments migration
// map a lead's raw cells to them; a cell they cannot map is `unknown`. Shared by the browser
// (filters) and the server (validation, counts).

export const FACETS = ["region", "seniority", "department", "size", "revenue"] as const;
export type Facet = (typeof FACETS)[number];

export const UNKNOWN = "unknown";

/** The 50 states and DC, by their two-letter codes. */
// prettier-ignore
export const US_STATES = [
  "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS",
  "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC",
  "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
] as const;

/** The UK's ONS regions (England's nine, and the three other nations). */
export const UK_REGIONS = [
  "london",
  "south_east",
  "south_west",
  "east_of_england",
  "west_midlands",
  "east_midlands",
  "yorkshire_and_the_humber",
  "north_west",
  "north_east",
  "wales",
  "scotland",
  "northern_ireland",
] as const;

export const SENIORITIES = ["owner", "c_level", "vp", "director", "manager", "senior", "entry"] as const;

export const DEPARTMENTS = [
  "executive",
  "engineering",
  "it",
  "product",
  "sales",
  "marketing",
  "customer_success",
  "operations",
  "finance",
  "hr",
  "legal",
  "other",
] as const;

/** Employees. */
export const SIZES = ["1-10", "11-50", "51-200", "201-500", "501-1000", "1001-5000", "5001+"] as const;

/** USD a year. */
export const REVENUES = ["<1M", "1M-10M", "10M-50M", "50M-100M", "100M-500M", "500M-1B", "1B+"] as const;

/** Every value a facet accepts in a filter, whatever the location (regions of both countries). */
export const VOCABULARIES: Record<Facet, readonly string[]> = {
  region: [...US_STATES, ...UK_REGIONS, UNKNOWN],
  seniority: [...SENIORITIES, UNKNOWN],
  department: [...DEPARTMENTS, UNKNOWN],
  size: [...SIZES, UNKNOWN],
  revenue: [...REVENUES, UNKNOWN],
};

/** The values a facet offers for a location's leads: regions are the country's own. */
export function facetValues(facet: Facet, location: Location): readonly string[] {
  if (facet !== "region") return VOCABULARIES[facet];
  return [...(location === "UK" ? UK_REGIONS : US_STATES), UNKNOWN];
}

const WORDS: Record<string, string> = {
  unknown: "Unknown",
  c_level: "C-level",
  vp: "VP",
  it: "IT",
  hr: "HR",
  customer_success: "Customer success",
  yorkshire_and_the_humber: "Yorkshire and the Humber",
  east_of_england: "East of England",
};

/** A value as people read it: "C-level", "South east", "CA", "51-200". */
export function valueLabel(value: string): string {
  if (WORDS[value]) return WORDS[value];
  if (!/^[a-z_]+$/.test(value)) return value;
  const words = value.replace(/_/g, " ");
  return words[0].toUpperCase() + words.slice(1);
}

export const FACET_LABELS: Record<Facet, string> = {
  region: "Region",
  seniority: "Seniority",
  department: "Department",
  size: "Company size",
  revenue: "Revenue",
};

/** A filter on each facet (a missing facet means every value); values sorted, none repeated. */
export type Segment = Partial<Record<Facet, string[]>>;

/** "Region: CA, NY · Seniority: C-level, VP", or "" for the whole category. */
export function describeSegment(segment: Segment | null | undefined): string {
  if (!segment) return "";
  return FACETS.filter((facet) => segment[facet]?.length)
    .map((facet) => `${FACET_LABELS[facet]}: ${segment[facet]!.map(valueLabel).join(", ")}`)
    .join(" · ");
}

/** The category page's address for a package and segment: `?package=...&region=CA,NY&...`. */
export function segmentQueryString(segment: Segment | null | undefined): string {
  if (!segment) return "";
  return FACETS.filter((facet) => segment[facet]?.length)
    .map((facet) => `${facet}=${segment[facet]!.map(encodeURIComponent).join(",")}`)
    .join("&");
}
