// RFC 4180 cells and lines, shared by the lead downloads and the admin exports. A cell that a
// spreadsheet would run as a formula gets a leading apostrophe (CSV injection), also when the
// formula sign follows leading spaces (spreadsheets trim them); lead downloads keep phone numbers
// such as "+1 (212) 555-0100" as they are. Cells holding a semicolon or a tab are quoted too: a
// spreadsheet in a locale that splits on ";" (or a paste that splits on tabs) would otherwise
// break them into several columns.
const SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
const PATTERNS = {
  formulaStart: "^[ ]*[=+@\\t\\r-]",
  phoneLike: `^[+-][0-9${SPACE}().-]*$`,
  quoted: '[",;\\t\\r\\n]',
  // One test for the common case: nothing to quote and nothing a spreadsheet could execute.
  needsWork: '[",;\\t\\r\\n]|^[ ]*[=+@-]',
};
const FORMULA_START = new RegExp(PATTERNS.formulaStart);
const PHONE_LIKE = new RegExp(PATTERNS.phoneLike);
const QUOTED = new RegExp(PATTERNS.quoted);
const NEEDS_WORK = new RegExp(PATTERNS.needsWork);

export type CsvOptions = { keepPhoneNumbers?: boolean };

export function csvCell(value: unknown, options: CsvOptions = {}): string {
  let text =
    value === null || value === undefined ? "" : value instanceof Date ? value.toISOString() : String(value);
  if (!NEEDS_WORK.test(text)) return text;
  if (FORMULA_START.test(text) && !(options.keepPhoneNumbers && PHONE_LIKE.test(text))) text = `'${text}`;
  return QUOTED.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: unknown[], options?: CsvOptions): string {
  return `${values.map((value) => csvCell(value, options)).join(",")}\r\n`;
}

/** A CSV file's first line: a byte-order mark (so spreadsheets read UTF-8) and the header. */
export function csvHead(header: string[], options?: CsvOptions): string {
  return `\uFEFF${csvLine(header, options)}`;
}
