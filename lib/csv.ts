import { escapeLiteral } from "pg";

// RFC 4180 cells and lines, shared by the lead downloads and the admin exports. A cell that a
// spreadsheet would run as a formula gets a leading apostrophe (CSV injection), also when the
// formula sign follows leading spaces (spreadsheets trim them); lead downloads keep phone numbers
// such as "+1 (212) 555-0100" as they are. Cells holding a semicolon or a tab are quoted too: a
// spreadsheet in a locale that splits on ";" (or a paste that splits on tabs) would otherwise
// break them into several columns.
//
// csvCellSql applies the same rule inside PostgreSQL, so the patterns are written
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

// The quick test: one pattern over the checked cells run together, each preceded by chr(1), that
// matches wherever csvCell might change a cell: a quote character anywhere, or a cell starting
// with a space or a formula sign. With phone numbers kept, a cell starting with "+" or "-" matches
// unless only phone characters follow it up to the end of the text (ASCII spaces only,
// deliberately narrower than PATTERNS.phoneLike): so only the last cell can pass as a phone
// number, and the phone column is put last. chr(1) inside a cell can only add a match, never hide
// one, and a match only sends the line down the exact path.
const TOUCHED = {
  all: `[",;\\t\\r\\n]|\\x01[ =+@-]`,
  phones: `[",;\\t\\r\\n]|\\x01([ =@]|[+-][0-9 ().-]*[^0-9 ().-])`,
};

/**
 * A cell for csvLineSql: a text expression; whether it is known to need no work at all (dates, enum
 * values); whether it is the column expected to hold phone numbers (checked last, see TOUCHED).
 */
export type SqlCell = { sql: string; plain?: boolean; phone?: boolean };

/**
 * csvLine (CRLF included) as an SQL expression over text expressions, for many rows. A line whose
 * cells csvCell would all leave alone is written as it is, any other goes through csvCellSql cell
 * by cell. Nearly all lines take the first way, which costs a single regular expression test on
 * the cells run together instead of one or more per cell: each test converts its text to wide
 * characters first, and a premium download has 340,000 cells. Plain cells skip the check.
 */
export function csvLineSql(cells: SqlCell[], options: CsvOptions = {}): string {
  const checked = cells.filter((cell) => !cell.plain);
  const inOrder = [...checked.filter((cell) => !cell.phone), ...checked.filter((cell) => cell.phone)];
  const pattern = options.keepPhoneNumbers ? TOUCHED.phones : TOUCHED.all;
  const untouched = `concat_ws(chr(1), '', ${inOrder.map((cell) => cell.sql).join(", ")}) !~ ${escapeLiteral(pattern)}`;
  const exact = cells.map((cell) => (cell.plain ? cell.sql : csvCellSql(cell.sql, options))).join(", ',', ");
  return `CASE WHEN ${untouched} THEN concat(${cells.map((cell) => cell.sql).join(", ',', ")}, E'\\r\\n')
    ELSE concat(${exact}, E'\\r\\n') END`;
}
