"use client";

import { useState, type FormEvent } from "react";
import { formatCount } from "@/components/admin/format";
import { FACETS, FACET_LABELS } from "@/lib/segments/vocabularies";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Progress } from "@/components/ui/progress";
import { useImportLeads } from "@/lib/client/use-admin";
import { IMPORT_REFUSALS, importSource, type ImportRefusal, type ImportReport } from "@/lib/schemas/admin";
import type { CategoryDto } from "@/lib/schemas/category";

type Props = { category?: CategoryDto; onOpenChange: (open: boolean) => void };

const REFUSAL_LABELS: Record<ImportRefusal, string> = {
  missing_email: "no email",
  syntax: "invalid email syntax",
  disposable: "disposable domain",
  no_mail_domain: "domain without mail",
  null_mx: "domain refusing mail (null MX)",
  email_status: "unknown email status",
  country: "unsupported country",
  verified_at: "invalid verified date",
  collected_at: "invalid collected date",
  value_too_long: "value too long",
  malformed_csv: "malformed CSV",
  file_too_large: "file too large",
};

export function ImportDialog({ category, onOpenChange }: Props) {
  return (
    <Dialog open={Boolean(category)} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl">
        {category && <ImportForm key={category._id} category={category} onOpenChange={onOpenChange} />}
      </DialogContent>
    </Dialog>
  );
}

function ImportForm({
  category,
  onOpenChange,
}: {
  category: CategoryDto;
  onOpenChange: (open: boolean) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [source, setSource] = useState("");
  const [progress, setProgress] = useState(0);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const importLeads = useImportLeads();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsedSource = importSource.safeParse(source);
    if (!parsedSource.success) {
      setError(parsedSource.error.issues[0].message);
      return;
    }
    if (!file) {
      setError("Choose a CSV file first");
      return;
    }
    setError(null);
    setReport(null);
    setProgress(0);
    importLeads.mutate(
      { categoryId: category._id, source: parsedSource.data, file, onProgress: setProgress },
      { onSuccess: setReport, onError: (failure) => setError(failure.message) },
    );
  };

  const uploading = importLeads.isPending && progress < 1;
  const processing = importLeads.isPending && progress >= 1;
  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Import Leads</DialogTitle>
        <DialogDescription>
          Add leads to {category.title} from a CSV file. An email column is required; first name, last name,
          job title, company, phone, city, state, country (USA or UK), profile URL, verified date, email
          status and more are recognised by their usual header names. Every address is checked (syntax,
          disposable and mail-less domains); rows that fail are reported, not imported. Leads already in the
          category are skipped. The source is stored on every row (a Source column overrides it per row), with
          the Collected At column or else today as the collection date.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <Label htmlFor="import-source">Source</Label>
        <Input
          id="import-source"
          required
          maxLength={200}
          placeholder="e.g. Company websites, Partner: Acme Data Ltd"
          value={source}
          disabled={importLeads.isPending}
          onChange={(event) => setSource(event.target.value)}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="import-file">CSV file</Label>
        <Input
          id="import-file"
          type="file"
          accept=".csv,text/csv"
          disabled={importLeads.isPending}
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
      </div>
      {importLeads.isPending && (
        <div className="grid gap-2" aria-live="polite">
          <Progress value={uploading ? Math.round(progress * 100) : null} aria-label="Import progress" />
          <p className="text-sm text-muted-foreground">
            {uploading
              ? `Uploading... ${Math.round(progress * 100)}%`
              : processing
                ? "Importing leads..."
                : ""}
          </p>
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      {report && (
        <div className="grid gap-2 rounded-md border p-4" data-testid="import-report" aria-live="polite">
          <h3 className="font-semibold">Import complete</h3>
          <ul className="grid gap-1 text-sm">
            <li>
              Imported: <strong>{formatCount(report.imported)}</strong>
            </li>
            <li>
              Source: <strong>{report.source ?? "Not recorded"}</strong>
            </li>
            <li>
              Duplicates skipped: <strong>{formatCount(report.duplicates)}</strong>
            </li>
            <li>
              Skipped at the person&apos;s request (erased): <strong>{formatCount(report.suppressed)}</strong>
            </li>
            <li>
              Invalid rows: <strong>{formatCount(report.invalidCount)}</strong>
              {report.invalidCount > 0 && (
                <span data-testid="import-reasons">
                  {" "}
                  (
                  {IMPORT_REFUSALS.filter((code) => report.reasons[code] > 0)
                    .map((code) => `${REFUSAL_LABELS[code]} ${formatCount(report.reasons[code])}`)
                    .join(", ")}
                  )
                </span>
              )}
            </li>
            <li data-testid="import-unknown-facets">
              Not mapped to a segment value (unknown):{" "}
              {FACETS.map(
                (facet) => `${FACET_LABELS[facet]} ${formatCount(report.unknownFacets[facet])}`,
              ).join(", ")}
            </li>
          </ul>
          {report.invalid.length > 0 && (
            <div className="max-h-48 overflow-y-auto rounded bg-muted p-2 text-xs">
              <ul className="grid gap-0.5">
                {report.invalid.map((row, index) => (
                  <li key={`${row.line}-${index}`}>
                    Line {row.line}: {row.reason}
                  </li>
                ))}
              </ul>
              {report.invalidCount > report.invalid.length && (
                <p className="mt-1 text-muted-foreground">
                  and {formatCount(report.invalidCount - report.invalid.length)} more
                </p>
              )}
            </div>
          )}
        </div>
      )}
      <DialogFooter>
        <Button
          type="button"
          variant="outline"
          onClick={() => onOpenChange(false)}
          disabled={importLeads.isPending}
        >
          Close
        </Button>
        <Button type="submit" disabled={importLeads.isPending || !file}>
          Import
        </Button>
      </DialogFooter>
    </form>
  );
}
