import "server-only";
import type { EmailQuality } from "@/lib/email-quality";
import { inScope } from "@/lib/leads/eligible";
import type { Location } from "@/lib/location";
import { maskedName } from "@/lib/leads/previews";
import { timedQuery, withQueryPermit } from "@/lib/limits/expensive-queries";
import type { Segment } from "@/lib/segments/vocabularies";

/** A masked lead of a segment: never an email, phone or profile URL; the email's status only. */
export type SegmentPreviewRow = {
  name: string;
  title: string;
  company: string;
  city: string;
  state: string;
  emailStatus: "valid" | "accept_all" | "unknown";
};

export const SEGMENT_PREVIEW_ROWS = 10;

// A rare segment has no index to find its rows by: the query walks the country's leads by date
// until ten match, which at a million leads can take seconds. Past this, or when every permit of
// expensive queries is taken (lib/limits/expensive-queries.ts), the page goes without the preview
// rather than hold a connection for anyone who makes up a narrow address.
const PREVIEW_TIMEOUT_MS = 1_000;

/**
 * The most recently verified of the leads an order of the segment and email quality may receive
 * (lib/leads/eligible.ts), masked (first name and last initial).
 */
export async function segmentPreview(
  categoryId: string,
  location: Location,
  segment: Segment | null,
  emailQuality: EmailQuality = "any",
): Promise<SegmentPreviewRow[]> {
  const rows = await withQueryPermit(null, () =>
    timedQuery(
      (tx) =>
        tx.$queryRaw<
          {
            first_name: string;
            last_name: string;
            job_title: string;
            company: string;
            city: string;
            state: string;
            email_status: SegmentPreviewRow["emailStatus"];
          }[]
        >`SELECT first_name, last_name, job_title, company, city, state, email_status::text FROM leads
     WHERE ${inScope({ categoryId, country: location, segment, emailQuality })}
     ORDER BY verified_at DESC, id LIMIT ${SEGMENT_PREVIEW_ROWS}`,
      PREVIEW_TIMEOUT_MS,
    ),
  );
  return rows.map((row) => ({
    name: maskedName(row.first_name, row.last_name),
    title: row.job_title,
    company: row.company,
    city: row.city,
    state: row.state,
    emailStatus: row.email_status,
  }));
}
