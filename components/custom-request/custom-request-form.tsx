"use client";

import { useId, useState, type FormEvent } from "react";
import { SendIcon } from "lucide-react";
import { AttachmentsField } from "@/components/custom-request/attachments-field";
import { Button } from "@/components/ui/button";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { HttpError } from "@/lib/client/fetcher";
import { customRequestFields, useSubmitCustomRequest } from "@/lib/client/use-custom-request";
import { fieldErrors } from "@/lib/schemas/common";
import {
  CUSTOM_REQUEST_DEFAULTS,
  customRequestSchema,
  INDUSTRIES,
  PLATFORMS,
  ROLES,
  type CustomRequestFormState,
  type Industry,
  type Role,
} from "@/lib/schemas/custom-request";

/** The custom lead request form of the home page's #custom-request section. */
export function CustomRequestForm() {
  const [form, setForm] = useState<CustomRequestFormState>(CUSTOM_REQUEST_DEFAULTS);
  const [files, setFiles] = useState<File[]>([]);
  // Honeypot: invisible to people; a bot that fills every field gives itself away.
  const [website, setWebsite] = useState("");
  // Per-field messages: the handler's schema run here first, then the server's `errors` map.
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = useSubmitCustomRequest();
  const id = useId();

  const set = <K extends keyof CustomRequestFormState>(key: K, value: CustomRequestFormState[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = customRequestSchema.safeParse(customRequestFields(form, website));
    if (!parsed.success) {
      const found = fieldErrors(parsed.error);
      setErrors(found);
      const missing = !form.name.trim() || !form.email.trim();
      toast({
        title: "Validation Error",
        description: missing ? "Please fill in all required fields" : Object.values(found).join("; "),
        variant: "destructive",
      });
      return;
    }
    setErrors({});
    try {
      const answer = await submit.mutateAsync({ form, files, website });
      if (!answer.success) throw new Error("The server did not confirm the request");
      setForm(CUSTOM_REQUEST_DEFAULTS);
      setFiles([]);
      setWebsite("");
      setErrors({});
      toast({
        title: "Request Submitted",
        description: "We've received your custom lead request and will contact you shortly.",
      });
    } catch (error) {
      // A refusal (4xx) names what to fix; network and server failures keep the product's text.
      const refusal = error instanceof HttpError && error.isClientError ? error : undefined;
      setErrors(refusal?.errors ?? {});
      const reason = refusal?.serverReason;
      toast({
        title: "Submission Error",
        description: reason ?? "There was a problem submitting your request. Please try again.",
        variant: "destructive",
      });
    }
  };

  return (
    <form onSubmit={onSubmit} aria-label="Custom lead request" className="grid gap-6">
      <fieldset className="grid gap-3">
        <legend className="mb-3 text-sm leading-none font-medium">Platforms</legend>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {PLATFORMS.map((platform) => (
            <div
              key={platform.value}
              className="flex items-center gap-2 rounded-md border bg-background px-3 py-2"
            >
              <Switch
                id={`${id}-platform-${platform.value}`}
                checked={form.platforms[platform.value]}
                onCheckedChange={(checked) =>
                  set("platforms", { ...form.platforms, [platform.value]: checked })
                }
              />
              <Label htmlFor={`${id}-platform-${platform.value}`}>{platform.label}</Label>
            </div>
          ))}
        </div>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={`${id}-industry`}>Industry</Label>
          <Select value={form.industry} onValueChange={(value) => set("industry", value as Industry)}>
            <SelectTrigger id={`${id}-industry`} className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {INDUSTRIES.map((industry) => (
                <SelectItem key={industry.value} value={industry.value}>
                  {industry.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-role`}>Role</Label>
          <Select value={form.role} onValueChange={(value) => set("role", value as Role)}>
            <SelectTrigger id={`${id}-role`} className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {ROLES.map((role) => (
                <SelectItem key={role.value} value={role.value}>
                  {role.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>

      <div className="grid gap-2">
        <Label htmlFor={`${id}-message`}>Message</Label>
        <Textarea
          id={`${id}-message`}
          rows={4}
          maxLength={5000}
          className="field-sizing-fixed resize-y"
          placeholder="Tell us about the leads you need: locations, company size, volume, deadline…"
          value={form.message}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? `${id}-message-error` : undefined}
          onChange={(event) => set("message", event.target.value)}
        />
        <FieldError id={`${id}-message-error`} message={errors.message} />
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={`${id}-name`}>Name *</Label>
          <Input
            id={`${id}-name`}
            autoComplete="name"
            aria-required="true"
            maxLength={200}
            placeholder="Jane Smith"
            value={form.name}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? `${id}-name-error` : undefined}
            onChange={(event) => set("name", event.target.value)}
          />
          <FieldError id={`${id}-name-error`} message={errors.name} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-email`}>Email *</Label>
          <Input
            id={`${id}-email`}
            type="email"
            autoComplete="email"
            aria-required="true"
            maxLength={254}
            placeholder="jane@company.com"
            value={form.email}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? `${id}-email-error` : undefined}
            onChange={(event) => set("email", event.target.value)}
          />
          <FieldError id={`${id}-email-error`} message={errors.email} />
        </div>
      </div>

      <div className="grid gap-2">
        <AttachmentsField files={files} onChange={setFiles} />
        <FieldError id={`${id}-files-error`} message={errors.files} />
      </div>

      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor={`${id}-website`}>Website</label>
        <input
          id={`${id}-website`}
          name="website"
          type="text"
          tabIndex={-1}
          autoComplete="off"
          value={website}
          onChange={(event) => setWebsite(event.target.value)}
        />
      </div>

      <Button type="submit" size="lg" className="w-full" disabled={submit.isPending}>
        {submit.isPending ? (
          <>
            <Spinner size="sm" label="Submitting your request" />
            Submitting...
          </>
        ) : (
          <>
            <SendIcon aria-hidden="true" />
            Submit Request
          </>
        )}
      </Button>
    </form>
  );
}
