import "server-only";
import { csvLine } from "@/lib/csv";
import type { Column, DeliveryRow } from "@/lib/leads/delivery";

// The lead download as CSV, streamed a batch at a time.
const PHONES = { keepPhoneNumbers: true };

export function csvStream(
  columns: Column[],
  batches: AsyncGenerator<DeliveryRow[]>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      // Pull-based: the next batch is read from the database only when the client has taken the last.
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          // A BOM so Excel opens the UTF-8 file with accents intact.
          controller.enqueue(
            encoder.encode(
              `\uFEFF${csvLine(
                columns.map((column) => column.header),
                PHONES,
              )}`,
            ),
          );
          return;
        }
        const next = await batches.next();
        if (next.done) {
          controller.close();
          return;
        }
        let chunk = "";
        for (const row of next.value) chunk += csvLine(row, PHONES);
        controller.enqueue(encoder.encode(chunk));
      },
      async cancel() {
        await batches.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
