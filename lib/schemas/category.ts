import type { Location } from "@/lib/location";

/** Sellable leads by the status of their last email check (invalid ones are never sellable). */
export type StatusMix = { valid: number; acceptAll: number; unknown: number };

/** A category as every API answers it (public and admin). */
export type CategoryDto = {
  _id: string;
  title: string;
  description: string;
  count: number;
  /** Leads per country; a package is available in a location when this reaches its lead count. */
  countByLocation: Record<Location, number>;
  /** Whole percent of the leads verified in the last 30 days (docs/product-rules.md, "Freshness"). */
  verifiedRecentlyPercent: number;
  /** The same share per country, for the location a buyer looks at. */
  verifiedRecentlyPercentByLocation: Record<Location, number>;
  /** Sellable leads per country by email status (docs/product-rules.md, "Verification"). */
  statusMixByLocation: Record<Location, StatusMix>;
  /** When leads were last imported; null before the first import. */
  updatedAt: string | null;
  createdAt: string;
  /** The UK phones' last TPS/CTPS screening (docs/product-rules.md, "UK compliance"); null before any. */
  ukPhoneScreening: PhoneScreening | null;
  /**
   * Sellable leads per source (docs/product-rules.md, "UK compliance"), most first: the largest
   * sources, then the rest together as "Other sources".
   */
  sourceMix: SourceLeads[];
};

export type SourceLeads = { source: string; leads: number };
/** How many sources the mix names before it puts the rest together. */
export const NAMED_SOURCES = 4;
export const OTHER_SOURCES = "Other sources";

/**
 * How long a TPS/CTPS screening holds (PECR: screen within 28 days before calling), and how long
 * before its end the dashboard warns.
 */
export const SCREENING_DAYS = 28;
export const SCREENING_WARNING_DAYS = 3;

export type PhoneScreening = {
  /** The registers' file date the screening is as old as (YYYY-MM-DD). */
  screenedAt: string;
  /** Whole percent of the sellable UK leads whose number was callable (`clear`) at that screening. */
  callablePercent: number;
  /** False once the screening is over 28 days old: every UK phone then reads `unscreened`. */
  current: boolean;
};
