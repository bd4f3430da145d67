import { parseIncompletePhoneNumber, parsePhoneNumberFromString } from "libphonenumber-js/min";
import type { Location } from "../location";

// Phone numbers as libphonenumber-js reads them (docs/product-rules.md, "UK compliance"): no
// hand-written parsing. A UK lead's number is read as dialled in the UK (a leading 0 is national),
// a USA lead's as dialled in the US; a number with its own "+" country code keeps it.

/** What a lead's phone is before screening; a UK number becomes clear, tps or ctps when screened. */
export type PhoneCheck = {
  /** E.164 ("+441632960001"), or "" when the text is no valid number. */
  e164: string;
  status: "unscreened" | "not_a_uk_number" | "invalid_number" | "valid_number";
};

const UK_CALLING_CODE = "44";

export function checkPhone(phone: string, country: Location): PhoneCheck {
  const parsed =
    phone.trim() === "" ? undefined : parsePhoneNumberFromString(phone, country === "UK" ? "GB" : "US");
  if (!parsed?.isValid()) return { e164: "", status: "invalid_number" };
  if (country === "USA") return { e164: parsed.number, status: "valid_number" };
  return {
    e164: parsed.number,
    status: parsed.countryCallingCode === UK_CALLING_CODE ? "unscreened" : "not_a_uk_number",
  };
}

/**
 * A register line's number in E.164, or null when it is none. A register lists numbers people
 * registered, so a number of a possible UK length counts (validity would drop reserved ranges a
 * register may still hold); the UK country code is required.
 */
export function registerNumber(text: string): string | null {
  const parsed = parsePhoneNumberFromString(text, "GB");
  if (!parsed || parsed.countryCallingCode !== UK_CALLING_CODE || !parsed.isPossible()) return null;
  return parsed.number;
}

// A line of digits and spaces, with or without a leading "+": all libphonenumber-js reads of it is
// its digits (no extension, letters or other country's punctuation).
const PLAIN_LINE = /^\+?[\d ]+$/;
// How many of a plain line's leading digits decide libphonenumber-js's reading of a UK number: the
// country code or national prefix and the area code its patterns go by, with the length.
const SHAPE_DIGITS = 6;

/**
 * registerNumber() for the lines of one file, at a fraction of its cost. libphonenumber-js takes
 * about 36 µs a line: a 20,000,000-line register took 46 times PostgreSQL's COPY of the same
 * numbers. Its answer for a plain line depends only on the line's shape (its first digits and its
 * length; GB's possible lengths and patterns go by those), so it reads the first line of each shape
 * and its answer is reused for the others: "+44" and the same tail of their digits, or none. A
 * shape whose answer is not such a tail is read afresh every time, as is every other line.
 */
export function registerNumberReader(): (text: string) => string | null {
  // Per shape: how many leading digits its answer drops (the rest, after "+44", is the number), or
  // null for a refused shape.
  const shapes = new Map<string, number | null>();
  return (text) => {
    if (!PLAIN_LINE.test(text)) return registerNumber(text);
    const digits = parseIncompletePhoneNumber(text);
    const shape = `${digits.slice(0, SHAPE_DIGITS)}:${digits.length}`;
    const known = shapes.get(shape);
    if (known === null) return null;
    if (known !== undefined) return `+${UK_CALLING_CODE}${digits.slice(known)}`;
    const number = registerNumber(text);
    const national = number?.slice(1 + UK_CALLING_CODE.length);
    if (number === null) shapes.set(shape, null);
    else if (national !== undefined && digits.endsWith(national))
      shapes.set(shape, digits.length - national.length);
    return number;
  };
}
