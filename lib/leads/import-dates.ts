import "server-only";
import type { Location } from "@/lib/location";

// Delivery sends the most recently verified leads first, so a date must be a real one, from 1990 to
// today (a day of slack for time zones), read from an explicit list of formats, all in UTC:
// ISO 8601 (a date, or a date and time with an optional offset), year-first with slashes, and a
// slashed date with the year last read as the row's country writes it: day first in the UK, month
// first in the USA. A date that does not fit is refused for its line, never swapped silently
// (`new Date("05/01/2024")` would read a UK 5 January as 1 May).
const EARLIEST_VERIFIED = Date.UTC(1990, 0, 1);
const DAY_MS = 24 * 3600 * 1000;
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const YEAR_FIRST = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/;
const YEAR_LAST = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** The UTC instant of a calendar date and time, or null when a part is out of range (31 April). */
function utc(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  ms = 0,
): number | null {
  const time = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const date = new Date(time);
  const exact =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return exact ? time : null;
}

function offsetMinutes(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === "Z") return 0;
  const digits = zone.slice(1).replace(":", "");
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || "0");
  return zone.startsWith("-") ? -minutes : minutes;
}

function readDate(text: string, country: Location): number | null {
  const iso = ISO_DATE.exec(text);
  if (iso) {
    const [, year, month, day, hour, minute, second, fraction, zone] = iso;
    const ms = fraction ? Number(fraction.slice(0, 3).padEnd(3, "0")) : 0;
    const local = utc(+year, +month, +day, Number(hour ?? 0), Number(minute ?? 0), Number(second ?? 0), ms);
    return local === null ? null : local - offsetMinutes(zone) * 60_000;
  }
  const yearFirst = YEAR_FIRST.exec(text);
  if (yearFirst) return utc(+yearFirst[1], +yearFirst[2], +yearFirst[3]);
  const yearLast = YEAR_LAST.exec(text);
  if (yearLast) {
    const [, first, second, year] = yearLast;
    return country === "UK" ? utc(+year, +second, +first) : utc(+year, +first, +second);
  }
  return null;
}

export function parseVerifiedAt(text: string, country: Location, now: Date): Date | null {
  const time = readDate(text.trim(), country);
  return time === null || time < EARLIEST_VERIFIED || time > now.getTime() + DAY_MS ? null : new Date(time);
}
