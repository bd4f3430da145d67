import "server-only";

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

/** The arguments of one cursor-paged read: the first page, then the rows after the last id seen. */
export type PageArgs = { take: number; cursor?: { id: string }; skip?: number };

/**
 * A whole table as a CSV stream, read and written a page at a time so a large table is never held
 * in memory at once.
 */
export function csvTable<Row extends { id: string }>(options: {
  header: string[];
  readPage: (args: PageArgs) => Promise<Row[]>;
  cells: (row: Row) => unknown[];
  pageSize: number;
}): ReadableStream<Uint8Array> {
  const { header, readPage, cells, pageSize } = options;
  async function* pages(): AsyncGenerator<string> {
    let args: PageArgs = { take: pageSize };
    for (;;) {
      const rows = await readPage(args);
      if (rows.length) yield rows.map((row) => csvLine(cells(row))).join("");
      if (rows.length < pageSize) return;
      args = { take: pageSize, cursor: { id: rows[rows.length - 1].id }, skip: 1 };
    }
  }
  const encoder = new TextEncoder();
  let iterator: AsyncGenerator<string> | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvHead(header)));
    },
    async pull(controller) {
      iterator ??= pages();
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await iterator?.return(undefined);
    },
  });
}

/** `{name}-YYYY-MM-DD.csv`: an export's file name, dated the day it is made. */
export function datedCsvName(name: string, now = new Date()): string {
  return `${name}-${now.toISOString().slice(0, 10)}.csv`;
}
