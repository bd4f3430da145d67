import { ChevronDown, Download } from "lucide-react";
import { Button } from "@/components/ui/button";
import {
  DOWNLOAD_FORMATS,
  DOWNLOAD_FORMAT_LABELS,
  downloadFileName,
  type DownloadFormat,
} from "@/lib/schemas/formats";

/**
 * Every download format of an order in one menu. A native disclosure (details and summary) of plain
 * links: it opens, and every link downloads, without JavaScript too, so it serves the order page
 * (rendered on the server) and the purchase card alike.
 */
export function DownloadMenu({
  orderKey,
  href,
}: {
  orderKey: string;
  /** The download address of a format. */
  href: (format: DownloadFormat) => string;
}) {
  return (
    <details className="group relative" data-testid="download-menu">
      <Button asChild className="w-full cursor-pointer list-none [&::-webkit-details-marker]:hidden">
        <summary>
          <Download aria-hidden /> Download leads
          <ChevronDown aria-hidden className="transition-transform group-open:rotate-180" />
        </summary>
      </Button>
      <ul
        aria-label="Download formats"
        className="absolute inset-x-0 top-full z-20 mt-1 rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
      >
        {DOWNLOAD_FORMATS.map((format) => (
          <li key={format}>
            <a
              href={href(format)}
              download={downloadFileName(orderKey, format)}
              className="block rounded-sm px-3 py-2 text-sm hover:bg-accent hover:text-accent-foreground focus-visible:bg-accent focus-visible:outline-none"
            >
              {DOWNLOAD_FORMAT_LABELS[format]}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
