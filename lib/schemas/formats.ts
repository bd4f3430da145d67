// The download's formats and their names in the buyer's menus (no imports: the browser reads it).
export const DOWNLOAD_FORMATS = ["csv", "xlsx", "hubspot", "salesforce", "json", "ndjson"] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

export const DOWNLOAD_FORMAT_LABELS: Record<DownloadFormat, string> = {
  csv: "CSV",
  xlsx: "Excel (.xlsx)",
  hubspot: "HubSpot import (CSV)",
  salesforce: "Salesforce import (CSV)",
  json: "JSON",
  ndjson: "NDJSON (one lead a line)",
};

/** The file a format is saved as: `leads-{key}.csv`, `leads-{key}-hubspot.csv`, `leads-{key}.json`... */
export function downloadFileName(key: string, format: DownloadFormat): string {
  if (format === "hubspot" || format === "salesforce") return `leads-${key}-${format}.csv`;
  return `leads-${key}.${format}`;
}
