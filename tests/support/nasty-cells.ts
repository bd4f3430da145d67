import { crc32, deflateRawSync } from "node:zlib";

// Cell values that a CSV writer must quote or guard, or must leave alone although they look close.
export const NASTY_CELLS: string[] = [
  "",
  " ",
  "plain text",
  "=1+1",
  "=",
  "+",
  "-",
  "@",
  '  =HYPERLINK("http://x")',
  "   @SUM(A1)",
  " -2+3",
  "-2+3+cmd|' /C calc'!A0",
  "\t=1",
  "\r=1",
  "\n=1",
  " \t",
  "\u00a0=1",
  "a = b",
  "+1 (212) 555-0100",
  "+44 20 1234 5678",
  "-1.5",
  "+1\u00a0(212)\u2003555-0100",
  "+1\u3000212\ufeff",
  "+1 (212) 555-0100;",
  "+1 ext. 12",
  "+1\n212",
  "+1\t212",
  "Acme; Inc",
  "a\tb",
  "a,b",
  'say "hi"',
  '"',
  '""',
  "line\nbreak",
  "line\r\nbreak",
  "'already'",
  "back\\slash,",
  "\\",
  "é ümlaut, ok",
  "emoji 😀,=",
  "\u2028=",
  "=cmd|' /C calc'!A0, \"x\";\t",
];

// The worst inputs known for the upload parsers (exclusion lists, claims), for the tests and the
// abuse benchmark. Each cell is "a@", 317 dots and "@": 320 characters, the longest cell an
// exclusion list reads, that almost matches an address and fails only at its last character.
export const WORST_CELL = `a@${".".repeat(317)}@`;
const MB = 1024 * 1024;

/** Lines of `cell` filling at most `bytes` (10 MB unless given). */
export function worstCsv(cell = WORST_CELL, bytes = 10 * MB): Buffer {
  return Buffer.from(`${cell}\n`.repeat(Math.floor(bytes / (cell.length + 1))));
}

/** A 10 MB claim file of worst cells (a claim reads any cell between separators). */
export const worstClaimCsv = (): Buffer => worstCsv();

/** A zip of the given parts, each deflated at the best level (a minimal writer: no zip64). */
function zipOf(parts: [name: string, content: Buffer][]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of parts) {
    const data = deflateRawSync(content, { level: 9 });
    const fields = Buffer.alloc(26);
    fields.writeUInt16LE(20, 0); // version needed
    fields.writeUInt16LE(8, 4); // deflated
    fields.writeUInt32LE(crc32(content), 10);
    fields.writeUInt32LE(data.length, 14);
    fields.writeUInt32LE(content.length, 18);
    fields.writeUInt16LE(Buffer.byteLength(name), 22);
    const local = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), fields, Buffer.from(name), data]);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    fields.copy(record, 6);
    record.writeUInt32LE(offset, 42);
    central.push(Buffer.concat([record, Buffer.from(name)]));
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * A workbook whose `cells` cells all point to one shared string, the worst cell: rows of 100
 * cells, sheets of at most 2.1 million cells (44 MB of XML each), so that no part inflates past
 * 64 MB and the whole stays under 128 MB.
 */
export function sharedStringXlsx(cells: number): Buffer {
  const cell = '<c t="s"><v>0</v></c>';
  const row = `<row>${cell.repeat(100)}</row>`;
  const perSheet = 2_100_000;
  const sheets: [string, Buffer][] = [];
  for (let left = cells, index = 1; left > 0; left -= perSheet, index++) {
    const count = Math.min(left, perSheet);
    const xml = `<worksheet><sheetData>${row.repeat(Math.floor(count / 100))}<row>${cell.repeat(count % 100)}</row></sheetData></worksheet>`;
    sheets.push([`xl/worksheets/sheet${index}.xml`, Buffer.from(xml)]);
  }
  const strings = `<sst><si><t>${WORST_CELL}</t></si></sst>`;
  return zipOf([["xl/sharedStrings.xml", Buffer.from(strings)], ...sheets]);
}

/** The review's 389 KB workbook: 6.26 million cells, one shared string (126 MB of XML). */
export const worstXlsx = (): Buffer => sharedStringXlsx(6_260_000);
/** The review's 31 KB variant: half a million cells (10.5 MB of XML). */
export const worstSmallXlsx = (): Buffer => sharedStringXlsx(500_000);
