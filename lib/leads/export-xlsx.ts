import "server-only";
import { PassThrough, Readable } from "node:stream";
import ExcelJS from "exceljs";
import type { Column, DeliveryRow } from "@/lib/leads/delivery";

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

// Excel through exceljs' streaming workbook writer: each row is committed (serialised and zipped)
// as soon as it is added, so memory stays flat whatever the row count.
export function xlsxStream(
  columns: Column[],
  batches: AsyncGenerator<DeliveryRow[]>,
): ReadableStream<Uint8Array> {
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  // The header row stays in view while scrolling, and filters on every column.
  const sheet = workbook.addWorksheet("Leads", {
    views: [{ state: "frozen", xSplit: 0, ySplit: 1 }],
    autoFilter: { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } },
  });

  void (async () => {
    try {
      let started = false;
      const start = (sample: DeliveryRow[]) => {
        // The streaming writer fixes the column widths with the first row it writes, so they are
        // measured on the first batch (the rows are alike: the same package's columns).
        const widths = columnWidths(columns, sample);
        sheet.columns = columns.map((column, index) => ({
          header: column.header,
          key: column.key,
          width: widths[index],
        }));
        sheet.getRow(1).font = { bold: true };
        sheet.getRow(1).commit();
        started = true;
      };
      for await (const rows of batches) {
        // The buyer went away: stop reading (leaving the loop closes the batch reader).
        if (output.destroyed) return;
        if (!started) start(rows);
        for (const row of rows) sheet.addRow(row.map((cell) => cell ?? "")).commit();
        // Let the zip stream drain before reading more rows from the database.
        if (output.writableNeedDrain) await drainedOrClosed(output);
      }
      if (!started) start([]);
      sheet.commit();
      await workbook.commit();
    } catch (error) {
      output.destroy(error as Error);
    }
  })();

  return Readable.toWeb(output) as ReadableStream<Uint8Array>;
}

/** Resolves when the stream wants more data, or when it was closed (the buyer went away). */
function drainedOrClosed(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
  });
}
