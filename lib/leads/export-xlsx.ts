import "server-only";
import { PassThrough, Readable } from "node:stream";
import ExcelJS from "exceljs";
import type { Column, DeliveryRow } from "@/lib/leads/delivery";

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
  const sheet = workbook.addWorksheet("Leads");
  sheet.columns = columns.map((column) => ({
    header: column.header,
    key: column.key,
    width: Math.max(12, column.header.length + 2),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();

  void (async () => {
    try {
      for await (const rows of batches) {
        // The buyer went away: stop reading (leaving the loop closes the batch reader).
        if (output.destroyed) return;
        for (const row of rows) sheet.addRow(row.map((cell) => cell ?? "")).commit();
        // Let the zip stream drain before reading more rows from the database.
        if (output.writableNeedDrain) await drainedOrClosed(output);
      }
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
