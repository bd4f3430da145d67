import { LeadRowsTable } from "@/components/category/lead-sample-table";
import type { SegmentPreviewRow } from "@/lib/leads/segment-preview";

/** Real leads of the chosen segment, masked: name shortened, no email, phone or profile URL. */
export function SegmentPreview({ rows }: { rows: SegmentPreviewRow[] }) {
  return (
    <section aria-labelledby="segment-preview-title" data-testid="segment-preview">
      <h2 id="segment-preview-title" className="text-2xl font-bold">
        Segment preview
      </h2>
      <div className="mt-4 rounded-xl border bg-card">
        {rows.length === 0 ? (
          <p className="px-4 py-4 text-sm text-muted-foreground">No leads match these filters.</p>
        ) : (
          <LeadRowsTable
            rows={rows.map(({ city, state, ...row }) => ({
              ...row,
              location: [city, state].filter(Boolean).join(", "),
            }))}
            emailStatus
            describedBy="segment-preview-note"
          />
        )}
        <p id="segment-preview-note" className="px-4 py-4 text-sm text-muted-foreground">
          Ten of the most recently verified leads of this segment, names shortened; emails, phone numbers and
          profile links are only in the purchased file.
        </p>
      </div>
    </section>
  );
}
