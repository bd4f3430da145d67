import "server-only";
import { PassThrough, Readable } from "node:stream";
import type { DeliveryRow } from "@/lib/leads/delivery";
import type { Column } from "@/lib/packages";
import { ZipWriter } from "@/lib/leads/zip-stream";

// The lead download as Excel: the workbook's XML is written here as text and zipped as it goes, a
// batch of rows at a time. A general spreadsheet library spends most of a large download on
// per-cell objects and style bookkeeping; this file has one style (the bold header), shared by
// reference, and every other cell is an unstyled inline string.

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

function inlineString(reference: string, text: string, style: string): string {
  if (!NEEDS_ESCAPING.test(text))
    return `<c r="${reference}"${style} t="inlineStr"><is><t>${text}</t></is></c>`;
  const escaped = text.replace(FORBIDDEN, "").replace(MARKUP, (character) => ENTITIES[character]);
  return `<c r="${reference}"${style} t="inlineStr"><is><t xml:space="preserve">${escaped}</t></is></c>`;
}

function rowXml(letters: string[], number: number, cells: DeliveryRow, header = false): string {
  let xml = header ? `<row r="${number}" s="1" customFormat="1">` : `<row r="${number}">`;
  for (let index = 0; index < letters.length; index++) {
    const text = cells[index];
    // An empty cell is left out, as Excel does.
    if (text) xml += inlineString(`${letters[index]}${number}`, text, header ? ' s="1"' : "");
  }
  return `${xml}</row>`;
}

/** The worksheet's XML, in parts of about one batch each. */
async function* sheetXml(columns: Column[], batches: AsyncGenerator<DeliveryRow[]>): AsyncGenerator<string> {
  const letters = columns.map((_, index) => columnLetter(index));
  const lastColumn = letters[letters.length - 1];
  let number = 1;
  let started = false;
  const start = (sample: DeliveryRow[]) => {
    // Column widths come before the rows in the file, so they are measured on the first batch
    // (the rows are alike: the same package's columns).
    const cols = columnWidths(columns, sample)
      .map((width, index) => `<col min="${index + 1}" max="${index + 1}" width="${width}" customWidth="1"/>`)
      .join("");
    started = true;
    // The header row stays in view while scrolling (a frozen pane below row 1).
    return (
      `${XML_DECLARATION}<worksheet xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheetViews><sheetView workbookViewId="0">` +
      `<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/>` +
      `</sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>` +
      rowXml(
        letters,
        number++,
        columns.map((column) => column.header),
        true,
      )
    );
  };
  for await (const rows of batches) {
    let xml = started ? "" : start(rows);
    for (const row of rows) xml += rowXml(letters, number++, row);
    yield xml;
  }
  yield `${started ? "" : start([])}</sheetData><autoFilter ref="A1:${lastColumn}1"/></worksheet>`;
}

export function xlsxStream(
  columns: Column[],
  batches: AsyncGenerator<DeliveryRow[]>,
): ReadableStream<Uint8Array> {
  const output = new PassThrough();
  const zip = new ZipWriter(output);
  void (async () => {
    try {
      zip.addStored("[Content_Types].xml", CONTENT_TYPES);
      zip.addStored("_rels/.rels", ROOT_RELS);
      zip.addStored("xl/workbook.xml", workbookXml(columnLetter(columns.length - 1)));
      zip.addStored("xl/_rels/workbook.xml.rels", WORKBOOK_RELS);
      zip.addStored("xl/styles.xml", STYLES);
      // Leaving sheetXml early (the buyer went away) closes the batch reader too.
      await zip.addDeflated("xl/worksheets/sheet1.xml", sheetXml(columns, batches));
      if (!output.destroyed) zip.finish();
    } catch (error) {
      output.destroy(error as Error);
    }
  })();
  return Readable.toWeb(output) as ReadableStream<Uint8Array>;
}
