import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { SegmentPreviewRow } from "@/lib/segments/preview";

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
          <Table hintClassName="px-4">
            <TableHeader>
              <TableRow>
                <TableHead className="px-4">Name</TableHead>
                <TableHead className="px-4">Title</TableHead>
                <TableHead className="px-4">Company</TableHead>
                <TableHead className="px-4">Location</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row, index) => (
                <TableRow key={`${row.name}-${index}`}>
                  <TableCell className="px-4 font-medium">{row.name}</TableCell>
                  <TableCell className="px-4">{row.title}</TableCell>
                  <TableCell className="px-4">{row.company}</TableCell>
                  <TableCell className="px-4">{[row.city, row.state].filter(Boolean).join(", ")}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <p className="px-4 py-4 text-sm text-muted-foreground">
          Ten of the most recently verified leads of this segment, names shortened; emails, phone numbers and
          profile links are only in the purchased file.
        </p>
      </div>
    </section>
  );
}
