import { create as contentDisposition } from "content-disposition";
import { csvHead, csvLine } from "@/lib/csv";

// Every file the app sends (lead downloads, admin exports, request attachments) goes out with
// these headers: never cached, never sniffed into another type, always saved rather than shown.

/** The file types the app takes in (request attachments) and sends out (downloads, exports). */
export const CONTENT_TYPES = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  csv: "text/csv",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;

export const CSV_TYPE = `${CONTENT_TYPES.csv}; charset=utf-8`;

/**
 * Headers of a file download. The name loses any folder part; `filename*` carries it in UTF-8 as
 * RFC 6266 and 5987 require, `filename` an ASCII look-alike for old clients ("résumé" → "resume").
 */
export function attachmentHeaders(fileName: string, contentType: string): Record<string, string> {
  const name = fileName.split(/[\\/]/).pop() || "download";
  const fallback = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^\x20-\x7e]|["\\%]/g, "_");
  return {
    "content-type": contentType,
    "content-disposition": contentDisposition(name, { fallback }),
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
  };
}

export function dateStamp(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The arguments of one cursor-paged read: the first page, then the rows after the last id seen. */
export type PageArgs = { take: number; cursor?: { id: string }; skip?: number };

/**
 * A whole table as a dated CSV download (`{name}-YYYY-MM-DD.csv`), read and written a page at a
 * time so a large table is never held in memory at once.
 */
export function csvExport<Row extends { id: string }>(options: {
  name: string;
  header: string[];
  readPage: (args: PageArgs) => Promise<Row[]>;
  cells: (row: Row) => unknown[];
  pageSize: number;
}): Response {
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
  const stream = new ReadableStream<Uint8Array>({
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
  return new Response(stream, {
    headers: attachmentHeaders(`${options.name}-${dateStamp()}.csv`, CSV_TYPE),
  });
}
