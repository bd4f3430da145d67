import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";

export type SampleRow = {
  name: string;
  title: string;
  company: string;
  location: string;
  /** The lead's email status; the representative rows have none. */
  emailStatus?: "valid" | "accept_all" | "unknown";
};

const STATUS_BADGES = {
  valid: { label: "Valid", variant: "success" },
  accept_all: { label: "Accept-all", variant: "warning" },
  unknown: { label: "Unknown", variant: "outline" },
} as const;

/** Shown when the category has fewer than 5 leads to preview. */
const REPRESENTATIVE_ROWS: SampleRow[] = [
  { name: "Michael R.", title: "Marketing Director", company: "Summit Analytics", location: "Chicago, IL" },
  {
    name: "Jennifer L.",
    title: "Chief Executive Officer",
    company: "Harbor Logistics",
    location: "Seattle, WA",
  },
  { name: "David K.", title: "VP of Sales", company: "Crestline Software", location: "Austin, TX" },
  { name: "Emily S.", title: "Head of Operations", company: "Pinecone Health", location: "Boston, MA" },
  {
    name: "Robert T.",
    title: "Chief Financial Officer",
    company: "Bluewater Capital",
    location: "Miami, FL",
  },
];

export const SAMPLE_ROWS = 5;

/**
 * Masked leads as the category page shows them (the sample and the segment preview): name
 * shortened, title, company, location and, with `emailStatus`, the email's status (never the email).
 */
export function LeadRowsTable({
  rows,
  emailStatus = false,
  describedBy,
}: {
  rows: SampleRow[];
  emailStatus?: boolean;
  describedBy: string;
}) {
  return (
    <Table aria-describedby={describedBy} hintClassName="px-4">
      <TableHeader>
        <TableRow>
          <TableHead className="px-4">Name</TableHead>
          <TableHead className="px-4">Title</TableHead>
          <TableHead className="px-4">Company</TableHead>
          <TableHead className="px-4">Location</TableHead>
          {emailStatus && <TableHead className="px-4">Email</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row, index) => (
          <TableRow key={`${row.name}-${index}`}>
            <TableCell className="px-4 font-medium">{row.name}</TableCell>
            <TableCell className="px-4">{row.title}</TableCell>
            <TableCell className="px-4">{row.company}</TableCell>
            <TableCell className="px-4">{row.location}</TableCell>
            {emailStatus && (
              <TableCell className="px-4">
                {row.emailStatus ? (
                  <Badge variant={STATUS_BADGES[row.emailStatus].variant} data-testid="email-status">
                    {STATUS_BADGES[row.emailStatus].label}
                  </Badge>
                ) : (
                  <span className="text-muted-foreground">—</span>
                )}
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function LeadSampleTable({ rows }: { rows: SampleRow[] }) {
  const shown = [...rows, ...REPRESENTATIVE_ROWS].slice(0, SAMPLE_ROWS);
  return (
    <section aria-labelledby="sample-title" className="scroll-mt-24">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="sample-title" className="text-2xl font-bold">
          Lead Sample Preview
        </h2>
        <Badge variant="secondary">Representative data</Badge>
      </div>
      <div className="mt-4 rounded-xl border bg-card">
        <LeadRowsTable rows={shown} emailStatus describedBy="sample-note" />
        {/* After the table, not its caption: it wraps to the box instead of the scrolled table. */}
        <p id="sample-note" className="px-4 py-4 text-sm text-muted-foreground">
          Representative data: names are shortened, and emails, phone numbers and profile links are included
          only in the purchased file.
        </p>
      </div>
    </section>
  );
}
