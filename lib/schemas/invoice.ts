import { checkVAT, countries as vatCountries } from "jsvat";
import { getCountries } from "libphonenumber-js/min";
import { z } from "zod";
import { hasNoNul, NUL_MESSAGE } from "@/lib/schemas/common";

// The buyer's invoice details (docs/product-rules.md, "Invoices"), shared by the handler and the
// order page's form: the same checks on both sides.

/** ISO 3166-1 alpha-2 codes the buyer may pick, as libphonenumber-js keeps them. */
export const INVOICE_COUNTRIES: readonly string[] = getCountries();

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** A country's English name ("DE" -> "Germany"), the code itself when it has none. */
export const countryName = (code: string): string => regionNames.of(code) ?? code;

/** The VAT number's country prefix: Greece writes EL, everyone else the ISO code. */
const vatPrefix = (country: string) => (country === "GR" ? "EL" : country);

/** Spaces, dots and dashes dropped, upper case, with the country's prefix when it was left out. */
export function normalizeVatId(value: string, country: string): string {
  const compact = value.replace(/[\s.\-]+/g, "").toUpperCase();
  if (country === "GR" && compact.startsWith("GR")) return `EL${compact.slice(2)}`;
  return /^[A-Z]{2}/.test(compact) ? compact : `${vatPrefix(country)}${compact}`;
}

/** The jsvat rules of a country (none for a country without a VAT number format we know). */
const vatRulesOf = (country: string) =>
  vatCountries.filter((rules) => rules.codes[0] === country && country !== "EU");

/** Why a VAT ID is refused for a country, or null when its format (and check digits) hold. */
export function vatIdProblem(vatId: string, country: string): string | null {
  const rules = vatRulesOf(country);
  if (rules.length === 0) return `No VAT ID format is known for ${countryName(country)}: leave it empty`;
  const checked = checkVAT(normalizeVatId(vatId, country), rules);
  return checked.isValid
    ? null
    : `Not a valid VAT ID for ${countryName(country)}: check its digits and its ${vatPrefix(country)} prefix`;
}

const text = (label: string, max: number) =>
  z
    .string(`${label} is required`)
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine(hasNoNul, NUL_MESSAGE);

/** `POST /api/orders/{key}/invoice`: the details to create the invoice with, or to correct once. */
export const invoiceDetailsBody = z
  .object({
    companyName: text("Company name", 200),
    address: text("Address", 500),
    country: z
      .string("Country is required")
      .trim()
      .toUpperCase()
      .refine((code) => INVOICE_COUNTRIES.includes(code), "Choose a country"),
    vatId: z
      .string()
      .trim()
      .max(40, "VAT ID must be at most 40 characters")
      .nullish()
      .transform((value) => (value ? value : undefined)),
  })
  .strict()
  .superRefine((body, context) => {
    if (body.vatId === undefined || !INVOICE_COUNTRIES.includes(body.country)) return;
    const problem = vatIdProblem(body.vatId, body.country);
    if (problem) context.addIssue({ code: "custom", path: ["vatId"], message: problem });
  })
  .transform((body) => ({
    ...body,
    vatId: body.vatId === undefined ? null : normalizeVatId(body.vatId, body.country),
  }));
export type InvoiceDetailsInput = z.input<typeof invoiceDetailsBody>;
export type InvoiceDetails = z.output<typeof invoiceDetailsBody>;

/** An order's invoice as the order page and the POST's answer show it. */
export type InvoiceSummary = {
  number: number;
  companyName: string;
  address: string;
  country: string;
  vatId: string | null;
  issuedAt: string;
  /** When the buyer used their one correction; null while it is still open. */
  correctedAt: string | null;
};

/** The PDF's file name. */
export const invoiceFileName = (number: number) => `invoice-${number}.pdf`;
