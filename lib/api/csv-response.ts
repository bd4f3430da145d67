import { csvLine } from "@/lib/csv";

/**
 * A streamed CSV download: the header line, then whatever `pages` yields, page by page, so a large
 * table is never held in memory at once.
 */
export function csvResponse(
  filename: string,
  header: string[],
  pages: () => AsyncGenerator<unknown[][]>,
): Response {
  const encoder = new TextEncoder();
  let iterator: AsyncGenerator<unknown[][]> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      // A byte-order mark so spreadsheet programs read the file as UTF-8.
      controller.enqueue(encoder.encode(`\uFEFF${csvLine(header)}`));
    },
    async pull(controller) {
      iterator ??= pages();
      const next = await iterator.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(next.value.map((row) => csvLine(row)).join("")));
    },
    async cancel() {
      await iterator?.return(undefined);
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

export function dateStamp(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}
