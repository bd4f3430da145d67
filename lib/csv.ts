import { escapeLiteral } from "pg";

// RFC 4180 cells and lines, shared by the lead downloads and the admin exports. A cell that a
// spreadsheet would run as a formula gets a leading apostrophe (CSV injection), also when the
// formula sign follows leading spaces (spreadsheets trim them); lead downloads keep phone numbers
// such as "+1 (212) 555-0100" as they are. Cells holding a semicolon or a tab are quoted too: a
// spreadsheet in a locale that splits on ";" (or a paste that splits on tabs) would otherwise
// break them into several columns.
//
// Lead downloads apply the same rule inside PostgreSQL (csvCellSql), so the patterns are written
// once, in the syntax both JavaScript and PostgreSQL's regular expressions read the same way: no
// shorthand classes (JavaScript's \s and PostgreSQL's differ), "-" last in a bracket.
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

/**
 * csvCell as an SQL expression over a text expression (repeated: keep it a column or a cheap
 * expression). The apostrophe never changes whether a cell needs quotes, so the quote test reads
 * the original value and the guard is evaluated once.
 */
export function csvCellSql(cell: string, options: CsvOptions = {}): string {
  const test = (pattern: keyof typeof PATTERNS) => `${cell} ~ ${escapeLiteral(PATTERNS[pattern])}`;
  const guardWhen = options.keepPhoneNumbers
    ? `${test("formulaStart")} AND NOT ${test("phoneLike")}`
    : test("formulaStart");
  const guarded = `CASE WHEN ${guardWhen} THEN '''' || ${cell} ELSE ${cell} END`;
  return `CASE WHEN NOT ${test("needsWork")} THEN ${cell}
    WHEN ${test("quoted")} THEN '"' || replace(${guarded}, '"', '""') || '"'
    ELSE ${guarded} END`;
}

// Code points of the characters that start a cell csvCell may change: a space (before a formula
// sign) and the formula signs; tab and CR are found by the quote test.
const SPACE_OR_SIGN = "32, 43, 45, 61, 64";
const PLUS_OR_MINUS = "43, 45";
// Deliberately narrower than PATTERNS.phoneLike (ASCII spaces only): anything else takes the
// exact path.
const PLAIN_PHONE = "^[+-][0-9 ().-]*$";

/** A cell for csvLineSql: a text expression, and whether it is known to need no work at all. */
export type SqlCell = { sql: string; plain?: boolean };

/**
 * csvLine (CRLF included) as an SQL expression over text expressions, for many rows. A line whose
 * cells csvCell would all leave alone (no quote character in any, none starting with a space or a
 * formula sign unless it is a plain phone number) is written as it is; any other goes through
 * csvCellSql cell by cell. Nearly all lines take the first way, which costs one regular expression
 * test on the cells run together (ascii() is next to free) instead of one or more per cell: each
 * test converts its text to wide characters first, and a premium download has 340,000 cells.
 * Cells marked plain (dates, enum values) are written as they are and skip the checks.
 */
export function csvLineSql(cells: SqlCell[], options: CsvOptions = {}): string {
  const checked = cells.filter((cell) => !cell.plain).map((cell) => cell.sql);
  const noQuotes = `concat(${checked.join(", ")}) !~ ${escapeLiteral(PATTERNS.quoted)}`;
  const plainStart = (cell: string) =>
    options.keepPhoneNumbers
      ? `(ascii(${cell}) NOT IN (${SPACE_OR_SIGN}) OR (ascii(${cell}) IN (${PLUS_OR_MINUS}) AND ${cell} ~ '${PLAIN_PHONE}'))`
      : `ascii(${cell}) NOT IN (${SPACE_OR_SIGN})`;
  const untouched = [noQuotes, ...checked.map(plainStart)].join("\n    AND ");
  const exact = cells.map((cell) => (cell.plain ? cell.sql : csvCellSql(cell.sql, options))).join(", ',', ");
  return `CASE WHEN ${untouched} THEN concat(${cells.map((cell) => cell.sql).join(", ',', ")}, E'\\r\\n')
    ELSE concat(${exact}, E'\\r\\n') END`;
}
