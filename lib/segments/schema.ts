import { z } from "zod";
import { commaList, joinedValues } from "@/lib/http/query-values.mjs";
import { DEFAULT_LOCATION, LOCATIONS } from "@/lib/location";
import { FACETS, VOCABULARIES, type Facet, type Segment } from "@/lib/segments/vocabularies";

// A segment as filters take it (docs/product-rules.md, "Segments"): every value from its facet's
// vocabulary (an unknown value is a 400 naming the facet), at most 60 values in all.

export const MAX_SEGMENT_VALUES = 60;
const TOO_MANY = `Choose at most ${MAX_SEGMENT_VALUES} filter values`;

function facetValues(facet: Facet) {
  const allowed = VOCABULARIES[facet];
  return z
    .array(z.string())
    .max(MAX_SEGMENT_VALUES, TOO_MANY)
    .superRefine((values, context) => {
      const unknown = values.find((value) => !allowed.includes(value));
      if (unknown !== undefined)
        context.addIssue({ code: "custom", message: `Unknown ${facet}: ${unknown.slice(0, 40)}` });
    });
}

/** One order of values and no repeats, and no empty facet: equal segments are equal JSON. */
export function normalSegment(segment: Segment): Segment | null {
  const normal: Segment = {};
  for (const facet of FACETS) {
    const values = segment[facet];
    if (values?.length) normal[facet] = VOCABULARIES[facet].filter((value) => values.includes(value));
  }
  return Object.keys(normal).length ? normal : null;
}

const valuesInAll = (segment: Segment) =>
  FACETS.reduce((sum, facet) => sum + (segment[facet]?.length ?? 0), 0) <= MAX_SEGMENT_VALUES;

/** The create body's `segment`: arrays of values; null when it narrows nothing. */
export const segmentBody = z
  .strictObject(
    Object.fromEntries(FACETS.map((facet) => [facet, facetValues(facet).optional()])) as {
      [F in Facet]: z.ZodOptional<ReturnType<typeof facetValues>>;
    },
  )
  .refine(valuesInAll, TOO_MANY)
  .transform(normalSegment);

/** A query string's comma-separated values ("CA,NY"); empty parts are ignored. */
const commaValues = (facet: Facet) =>
  z.string().max(4000, TOO_MANY).transform(commaList).pipe(facetValues(facet)).optional();

/** `?location=USA&region=CA,NY&seniority=c_level,vp&...` of the segment endpoint and the category page. */
export const segmentQuery = z
  .object({
    location: z.enum(LOCATIONS, "Choose USA or UK").default(DEFAULT_LOCATION),
    region: commaValues("region"),
    seniority: commaValues("seniority"),
    department: commaValues("department"),
    size: commaValues("size"),
    revenue: commaValues("revenue"),
  })
  .refine(valuesInAll, TOO_MANY)
  .transform(({ location, ...segment }) => ({ location, segment: normalSegment(segment) }));

export type SegmentQuery = z.output<typeof segmentQuery>;

/**
 * A page's query (`?region=CA,NY` or a GET form's `?region=CA&region=NY`) as the segment endpoint
 * reads it; null when a value is unknown.
 */
export function segmentFromSearchParams(
  params: Record<string, string | string[] | undefined>,
): SegmentQuery | null {
  const joined = Object.fromEntries(
    Object.entries(params).map(([key, value]) => [key, Array.isArray(value) ? joinedValues(value) : value]),
  );
  if (typeof joined.location === "string") joined.location = joined.location.toUpperCase();
  const parsed = segmentQuery.safeParse(joined);
  return parsed.success ? parsed.data : null;
}
