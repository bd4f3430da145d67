"use client";

import { useState, type FormEvent } from "react";
import { FileText } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { HttpError } from "@/lib/client/fetcher";
import { useInvoiceDetails } from "@/lib/client/use-orders";
import { fieldErrors } from "@/lib/schemas/common";
import {
  countryName,
  INVOICE_COUNTRIES,
  invoiceDetailsBody,
  type InvoiceDetailsInput,
  type InvoiceSummary,
} from "@/lib/schemas/invoice";

// The paid order's invoice (docs/product-rules.md, "Invoices"): the buyer's company details, then
// the PDF's link; the details can be corrected once, keeping the invoice's number.

const COUNTRY_OPTIONS = INVOICE_COUNTRIES.map((code) => ({ code, name: countryName(code) })).sort((a, b) =>
  a.name.localeCompare(b.name, "en"),
);

const EMPTY: InvoiceDetailsInput = { companyName: "", address: "", country: "", vatId: "" };

function detailsOf(invoice: InvoiceSummary | null): InvoiceDetailsInput {
  if (!invoice) return EMPTY;
  const { companyName, address, country, vatId } = invoice;
  return { companyName, address, country, vatId: vatId ?? "" };
}

function Issued({ orderKey, invoice }: { orderKey: string; invoice: InvoiceSummary }) {
  return (
    <div className="space-y-2 rounded-lg border bg-muted/40 p-4 text-sm" data-testid="invoice-issued">
      <p className="font-medium">
        Invoice {invoice.number} for {invoice.companyName}, {countryName(invoice.country)}
        {invoice.vatId ? ` (VAT ID ${invoice.vatId})` : ""}
      </p>
      <Button asChild variant="outline" size="sm">
        <a href={`/api/orders/${encodeURIComponent(orderKey)}/invoice`} download>
          <FileText aria-hidden /> Download invoice (PDF)
        </a>
      </Button>
    </div>
  );
}

export function InvoiceSection({ orderKey, invoice }: { orderKey: string; invoice: InvoiceSummary | null }) {
  const save = useInvoiceDetails(orderKey);
  const [saved, setSaved] = useState(invoice);
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<InvoiceDetailsInput>(() => detailsOf(invoice));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (field: keyof InvoiceDetailsInput, value: string) =>
    setForm((current) => ({ ...current, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = invoiceDetailsBody.safeParse(form);
    setErrors(checked.success ? {} : fieldErrors(checked.error));
    if (!checked.success) return;
    save.mutate(form, {
      onSuccess: (answer) => {
        setSaved(answer);
        setEditing(false);
      },
      onError: (error) => setErrors(error instanceof HttpError ? (error.errors ?? {}) : {}),
    });
  };

  if (saved && !editing) {
    return (
      <div className="space-y-2">
        <Issued orderKey={orderKey} invoice={saved} />
        {saved.correctedAt === null ? (
          <Button variant="link" className="h-auto p-0" onClick={() => setEditing(true)}>
            Correct the details (once)
          </Button>
        ) : (
          <p className="text-sm text-muted-foreground">These details were corrected once and are final.</p>
        )}
      </div>
    );
  }

  const error = save.error instanceof HttpError ? save.error : null;
  const message =
    error && !error.errors
      ? (error.serverMessage ?? "The details could not be saved. Please try again.")
      : save.isError && !error
        ? "The details could not be saved. Please try again."
        : null;
  const field = (name: keyof InvoiceDetailsInput) => ({
    id: `invoice-${name}`,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `invoice-${name}-error` : undefined,
  });
  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Invoice details" noValidate>
      <p className="text-sm text-muted-foreground">
        {saved
          ? "Correct your company's details. This can be done once; the invoice keeps its number."
          : "Enter your company's details to get an invoice for this order."}
      </p>
      <div className="space-y-1.5">
        <Label htmlFor="invoice-companyName">Company name</Label>
        <Input
          {...field("companyName")}
          value={form.companyName}
          onChange={(e) => set("companyName", e.target.value)}
        />
        <FieldError id="invoice-companyName-error" message={errors.companyName} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="invoice-address">Address</Label>
        <Textarea
          {...field("address")}
          rows={3}
          value={form.address}
          onChange={(e) => set("address", e.target.value)}
        />
        <FieldError id="invoice-address-error" message={errors.address} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor="invoice-country">Country</Label>
          <Select value={form.country} onValueChange={(value) => set("country", value)}>
            <SelectTrigger {...field("country")} className="w-full">
              <SelectValue placeholder="Choose a country" />
            </SelectTrigger>
            <SelectContent>
              {COUNTRY_OPTIONS.map(({ code, name }) => (
                <SelectItem key={code} value={code}>
                  {name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <FieldError id="invoice-country-error" message={errors.country} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="invoice-vatId">VAT ID (optional)</Label>
          <Input
            {...field("vatId")}
            value={form.vatId ?? ""}
            onChange={(e) => set("vatId", e.target.value)}
          />
          <FieldError id="invoice-vatId-error" message={errors.vatId} />
        </div>
      </div>
      {message && (
        <p className="text-sm text-destructive" role="alert">
          {message}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner size="sm" /> : <FileText aria-hidden />}{" "}
          {saved ? "Save correction" : "Get an invoice"}
        </Button>
        {saved && (
          <Button type="button" variant="ghost" onClick={() => setEditing(false)}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
