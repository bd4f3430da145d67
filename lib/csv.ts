// RFC 4180 cells and lines, shared by the lead downloads and the admin exports. A cell that a
// spreadsheet would run as a formula gets a leading apostrophe (CSV injection); lead downloads keep
// phone numbers such as "+1 (212) 555-0100" as they are.
const FORMULA_START = /^[=+\-@\t\r]/;
const PHONE_LIKE = /^[+-][\d\s().-]*$/;
// One test for the common case: nothing to quote and nothing a spreadsheet could execute.
const NEEDS_WORK = /[",\r\n]|^[=+\-@\t\r]/;

export type CsvOptions = { keepPhoneNumbers?: boolean };

export function csvCell(value: unknown, options: CsvOptions = {}): string {
  let text =
    value === null || value === undefined ? "" : value instanceof Date ? value.toISOString() : String(value);
  if (!NEEDS_WORK.test(text)) return text;
  if (FORMULA_START.test(text) && !(options.keepPhoneNumbers && PHONE_LIKE.test(text))) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: unknown[], options?: CsvOptions): string {
  return `${values.map((value) => csvCell(value, options)).join(",")}\r\n`;
}
