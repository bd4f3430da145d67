import "server-only";
import { PassThrough, type Readable } from "node:stream";
import type { PoolClient } from "pg";
import { CopyRows, copyOrderLeads, decodeRows, encodeRows } from "@/lib/leads/copy-rows";
import type { DeliveryRow } from "@/lib/leads/delivery";
import type { Column } from "@/lib/packages";
import { toWebStream } from "@/lib/leads/web-stream";
import { drainedOrClosed, ZipWriter } from "@/lib/leads/zip-stream";

// The lead download as Excel: the sheet's XML is written here from COPY's binary rows
// (copy-rows.ts), byte by byte like the CSV download, and zipped as it goes. A general spreadsheet
// library spends most of a large download on per-cell objects and style bookkeeping; this file has
// one style (the bold header), shared by reference, and every other cell is an unstyled inline
// string.

const MIN_WIDTH = 10;
const MAX_WIDTH = 60;

/**
 * Character widths that fit the header and the given rows, within bounds. Excel measures widths in
 * characters of the default font; two more leave room for the autofilter's button.
 */
export function columnWidths(columns: Column[], rows: DeliveryRow[]): number[] {
  return columns.map((column, index) => {
    const longest = rows.reduce(
      (widest, row) => Math.max(widest, row[index]?.length ?? 0),
      column.header.length,
    );
    return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, longest + 2));
  });
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships";
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const SHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml";

const CONTENT_TYPES = `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${SHEET_TYPE}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${SHEET_TYPE}.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="${SHEET_TYPE}.styles+xml"/></Types>`;
const ROOT_RELS = `${XML_DECLARATION}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}"><Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK_RELS = `${XML_DECLARATION}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}"><Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${RELATIONSHIPS}/styles" Target="styles.xml"/></Relationships>`;
// Style 0 is the default; style 1 (font 1, bold) is the header's.
const STYLES = `${XML_DECLARATION}<styleSheet xmlns="${MAIN}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

function workbookXml(lastColumn: string): string {
  // Excel records an autofilter's range under this reserved name as well as in the sheet.
  return `${XML_DECLARATION}<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheets><sheet name="Leads" sheetId="1" r:id="rId1"/></sheets><definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">Leads!$A$1:$${lastColumn}$1</definedName></definedNames></workbook>`;
}

/** A, B, ..., Z, AA, ... */
function columnLetter(index: number): string {
  let letters = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

// What XML text cannot hold as is: markup characters, carriage returns (an XML reader turns a
// literal CR LF into LF), control characters XML 1.0 forbids (dropped: a spreadsheet cannot show
// them either), and leading or trailing white space, which needs xml:space="preserve" to survive.
const NEEDS_ESCAPING = /[&<>\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|^\s|\s$/;
const MARKUP = /[&<>\r]/g;
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;" };

/** A cell's text element. */
function textXml(text: string): string {
  if (!NEEDS_ESCAPING.test(text)) return `<t>${text}</t>`;
  const escaped = text.replace(FORBIDDEN, "").replace(MARKUP, (character) => ENTITIES[character]);
  return `<t xml:space="preserve">${escaped}</t>`;
}

function inlineString(reference: string, text: string, style: string): string {
  return `<c r="${reference}"${style} t="inlineStr"><is>${textXml(text)}</is></c>`;
}

function headerXml(letters: string[], headers: string[]): string {
  let xml = '<row r="1" s="1" customFormat="1">';
  for (let index = 0; index < letters.length; index++) {
    if (headers[index]) xml += inlineString(`${letters[index]}1`, headers[index], ' s="1"');
  }
  return `${xml}</row>`;
}

// Bytes that send a cell through textXml: markup, CR, control characters and 0xEF (the first byte
// of U+FFFE and U+FFFF, and of other characters, which textXml then leaves as they are).
const SPECIAL = new Uint8Array(256);
for (const character of "&<>\r") SPECIAL[character.charCodeAt(0)] = 1;
for (let byte = 0; byte < 32; byte++) if (byte !== 9 && byte !== 10) SPECIAL[byte] = 1;
SPECIAL[0xef] = 1;
// Bytes a cell cannot start or end with and be written as it is: ASCII white space, and any byte
// of a non-ASCII character (it may be white space too).
const EDGE = new Uint8Array(256);
for (const byte of [9, 10, 11, 12, 13, 32]) EDGE[byte] = 1;
for (let byte = 0x80; byte < 256; byte++) EDGE[byte] = 1;
const CELL_MIDDLE = Buffer.from('" t="inlineStr"><is>');
const CELL_END = Buffer.from("</is></c>");
const TEXT = Buffer.from("<t>");
const TEXT_END = Buffer.from("</t>");
const ROW_START = Buffer.from('<row r="');
const ROW_MIDDLE = Buffer.from('">');
const ROW_END = Buffer.from("</row>");
// The most a cell's XML adds to its text: the markup above with a 7-digit row number, and
// xml:space="preserve"; escaping makes the text at most five times longer ("&" is "&amp;").
const CELL_OVERHEAD = 96;
const CELL_GROWTH = 5;
// Widths are measured on the first rows (the rows are alike: the same package's columns), gathered
// before the sheet starts: column widths come before the rows in the file.
const SAMPLE_ROWS = 500;
const SAMPLE_BYTES = 64 * 1024;

function copyInto(target: Buffer, at: number, source: Buffer): number {
  for (let index = 0; index < source.length; index++) target[at + index] = source[index];
  return at + source.length;
}

/** Writes the worksheet's XML from COPY's binary rows, a cell at a time, without decoding them. */
class CopySheetXml extends CopyRows {
  private readonly letters: string[];
  private readonly cellStarts: Buffer[];
  private number = 1;
  private readonly digits = new Uint8Array(10);

  constructor(private readonly columns: Column[]) {
    // Output may run a megabyte ahead of compression (zip-stream.ts), so both keep working.
    super(SAMPLE_BYTES, 1024 * 1024);
    this.letters = columns.map((_, index) => columnLetter(index));
    this.cellStarts = this.letters.map((letter) => Buffer.from(`<c r="${letter}`));
  }

  protected override start(data: Buffer, at: number): void {
    const cols = columnWidths(this.columns, decodeRows(data, at, SAMPLE_ROWS))
      .map((width, index) => `<col min="${index + 1}" max="${index + 1}" width="${width}" customWidth="1"/>`)
      .join("");
    // The header row stays in view while scrolling (a frozen pane below row 1).
    const head =
      `${XML_DECLARATION}<worksheet xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheetViews><sheetView workbookViewId="0">` +
      `<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/>` +
      `</sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>` +
      headerXml(
        this.letters,
        this.columns.map((column) => column.header),
      );
    this.writeText(head);
  }

  protected override finish(): void {
    this.writeText(
      `</sheetData><autoFilter ref="A1:${this.letters[this.letters.length - 1]}1"/></worksheet>`,
    );
  }

  protected override row(data: Buffer, fields: number): void {
    const { starts, lengths, cellStarts, digits } = this;
    // The row number's digits, at the end of `digits` from `first` on.
    let first = digits.length;
    for (let rest = ++this.number; rest > 0; rest = Math.floor(rest / 10)) digits[--first] = 48 + (rest % 10);
    this.reserve(
      32 +
        fields * CELL_OVERHEAD +
        CELL_GROWTH * (starts[fields - 1] + Math.max(lengths[fields - 1], 0) - starts[0]),
    );
    const out = this.out;
    let written = copyInto(out, this.written, ROW_START);
    for (let index = first; index < digits.length; index++) out[written++] = digits[index];
    written = copyInto(out, written, ROW_MIDDLE);
    for (let field = 0; field < fields && field < cellStarts.length; field++) {
      const length = lengths[field];
      // An empty cell is left out, as Excel does.
      if (length <= 0) continue;
      const cell = starts[field];
      written = copyInto(out, written, cellStarts[field]);
      for (let index = first; index < digits.length; index++) out[written++] = digits[index];
      written = copyInto(out, written, CELL_MIDDLE);
      const mark = written;
      let plain = !EDGE[data[cell]] && !EDGE[data[cell + length - 1]];
      if (plain) {
        written = copyInto(out, written, TEXT);
        for (let index = 0; index < length; index++) {
          const byte = data[cell + index];
          if (SPECIAL[byte]) {
            plain = false;
            break;
          }
          out[written + index] = byte;
        }
      }
      // A cell that needs a look is redone from its text (over what was written of it).
      written = plain
        ? copyInto(out, written + length, TEXT_END)
        : mark + out.write(textXml(data.toString("utf8", cell, cell + length)), mark);
      written = copyInto(out, written, CELL_END);
    }
    this.written = copyInto(out, written, ROW_END);
  }

  private writeText(text: string): void {
    const bytes = Buffer.from(text);
    this.reserve(bytes.length);
    this.written += bytes.copy(this.out, this.written);
  }
}

/** The workbook around the sheet `sheet` writes, zipped as it goes. */
function workbook(
  columns: Column[],
  // Writes COPY's output into the sheet; a failure destroys the sheet rather than rejecting.
  fill: (sheet: CopySheetXml) => Promise<void>,
): Readable {
  const output = new PassThrough();
  const zip = new ZipWriter(output);
  const sheet = new CopySheetXml(columns);
  // Leaving early (the buyer went away) destroys the sheet, which stops what fills it.
  output.once("close", () => sheet.destroy());
  void (async () => {
    try {
      zip.addStored("[Content_Types].xml", CONTENT_TYPES);
      zip.addStored("_rels/.rels", ROOT_RELS);
      zip.addStored("xl/workbook.xml", workbookXml(columnLetter(columns.length - 1)));
      zip.addStored("xl/_rels/workbook.xml.rels", WORKBOOK_RELS);
      zip.addStored("xl/styles.xml", STYLES);
      await Promise.all([zip.addDeflated("xl/worksheets/sheet1.xml", sheet), fill(sheet)]);
      if (!output.destroyed) zip.finish();
    } catch (error) {
      output.destroy(error as Error);
    }
  })();
  return output;
}

/** The order's leads as an Excel workbook, streamed out of COPY over `client` (see copyOrderLeads). */
export function orderXlsxFile(client: PoolClient, orderId: string, columns: Column[]): Readable {
  return workbook(columns, (sheet) => copyOrderLeads(client, orderId, columns, sheet));
}

/** Rows given as text as an Excel workbook, through the same writer (encoded as COPY sends them). */
export function xlsxStream(
  columns: Column[],
  batches: AsyncIterable<DeliveryRow[]>,
): ReadableStream<Uint8Array> {
  const file = workbook(columns, async (sheet) => {
    let first = true;
    try {
      for await (const rows of batches) {
        if (sheet.destroyed) return;
        sheet.write(encodeRows(rows, first, false));
        first = false;
        await drainedOrClosed(sheet);
      }
      sheet.end(encodeRows([], first, true));
    } catch (error) {
      sheet.destroy(error as Error);
    }
  });
  return toWebStream(file);
}
