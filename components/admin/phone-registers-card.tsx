"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/use-toast";
import { HttpError } from "@/lib/client/fetcher";
import { usePhoneRegisters, useUploadRegister } from "@/lib/client/use-phone-registers";
import type { RegisterLoadDto, RegisterName } from "@/lib/schemas/admin";

const NAMES: Record<RegisterName, string> = { tps: "TPS", ctps: "CTPS" };

function loadSummary(report: RegisterLoadDto): string {
  const loaded = `${report.loaded.toLocaleString("en-US")} numbers loaded`;
  const rejected = report.rejected > 0 ? `, ${report.rejected.toLocaleString("en-US")} lines refused` : "";
  const screened = report.screening
    ? `; UK phones screened as of ${report.screening.screenedAt}`
    : "; UK phones are screened once both registers are loaded";
  return `${loaded}${rejected}${screened}.`;
}

/** The TPS and CTPS registers (docs/product-rules.md, "UK compliance"): as loaded, and a new upload. */
export function PhoneRegistersCard() {
  const registers = usePhoneRegisters();
  const upload = useUploadRegister();
  const [register, setRegister] = useState<RegisterName>("tps");
  const [fileDate, setFileDate] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<RegisterLoadDto | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || !fileDate) return;
    upload.mutate(
      { register, fileDate, file },
      {
        onSuccess: (loaded) => {
          setReport(loaded);
          toast({ title: `${NAMES[loaded.register]} register loaded`, description: loadSummary(loaded) });
        },
        onError: (error) =>
          toast({
            title: "Register upload failed",
            description: `${error instanceof HttpError ? (error.serverMessage ?? error.message) : error.message} The previous register stays in force.`,
            variant: "destructive",
          }),
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>TPS and CTPS Registers</h2>
        </CardTitle>
        <CardDescription>
          UK phones are screened against both registers after each upload and on every import. A screening
          holds 28 days from the register&apos;s file date.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ul className="grid gap-1 text-sm" aria-label="Loaded registers">
          {(["tps", "ctps"] as const).map((name) => {
            const loaded = registers.data?.find((row) => row.register === name);
            return (
              <li key={name}>
                <span className="font-medium">{NAMES[name]}:</span>{" "}
                {loaded
                  ? `file of ${loaded.fileDate}, ${loaded.numbers.toLocaleString("en-US")} numbers (${loaded.fileName || "no name"})`
                  : "not loaded"}
              </li>
            );
          })}
        </ul>
        <form onSubmit={onSubmit} className="grid gap-3">
          <div className="grid gap-2">
            <Label htmlFor="register-name">Register</Label>
            <select
              id="register-name"
              className="h-9 rounded-md border bg-transparent px-3 text-sm"
              value={register}
              onChange={(event) => setRegister(event.target.value as RegisterName)}
            >
              <option value="tps">TPS (people and sole traders)</option>
              <option value="ctps">CTPS (corporate numbers)</option>
            </select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="register-date">File Date</Label>
            <Input
              id="register-date"
              type="date"
              required
              value={fileDate}
              onChange={(event) => setFileDate(event.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="register-file">File (text, CSV or zip, one number per line)</Label>
            <Input
              id="register-file"
              type="file"
              required
              accept=".txt,.csv,.zip,text/plain,text/csv,application/zip"
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            />
          </div>
          <div>
            <Button type="submit" disabled={upload.isPending || !file || !fileDate}>
              {upload.isPending && <Spinner size="sm" label="Uploading" />}
              Upload Register
            </Button>
          </div>
        </form>
        {report && (
          <div className="text-sm" role="status">
            <p>{loadSummary(report)}</p>
            {report.rejectedLines.length > 0 && (
              <ul className="mt-1 list-disc pl-5 text-muted-foreground">
                {report.rejectedLines.slice(0, 10).map((line) => (
                  <li key={line.line}>
                    Line {line.line}: {line.text}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
