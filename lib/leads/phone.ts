import { parsePhoneNumberFromString } from "libphonenumber-js/min";
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
