"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Separator } from "@/components/ui/separator";
import { Textarea } from "@/components/ui/textarea";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/use-toast";
import { useAdminSettings, useUpdateSettings } from "@/lib/client/use-admin";
import { PasswordPanel } from "@/components/admin/password-panel";
import { PhoneRegistersCard } from "@/components/admin/phone-registers-card";
import { SecretKeyField } from "@/components/admin/secret-key-field";
import { VerificationSettings } from "@/components/admin/verification-settings";
import { fieldErrors } from "@/lib/schemas/common";
import {
  settingsUpdateSchema,
  type SellerIdentity,
  type SettingsDto,
  type SettingsUpdate,
} from "@/lib/schemas/admin";

// The seller identity's fields in the System Settings card (docs/product-rules.md, "UK compliance").
const SELLER_INPUTS: { field: keyof SellerIdentity; label: string; help: string; multiline?: boolean }[] = [
  { field: "sellerLegalName", label: "Legal Name", help: "The company that sells the data" },
  { field: "sellerAddress", label: "Postal Address", help: "As registered", multiline: true },
  { field: "sellerIcoNumber", label: "ICO Registration Number", help: "e.g. ZA123456" },
  { field: "sellerPrivacyEmail", label: "Privacy Contact Email", help: "Where people send privacy requests" },
  { field: "sellerVatNumber", label: "VAT Number (optional)", help: "e.g. GB123456789" },
];

export function SettingsTab() {
  const settings = useAdminSettings();
  if (!settings.data) {
    return (
      <div className="flex justify-center py-16">
        <Spinner size="lg" label="Loading settings" />
      </div>
    );
  }
  return <SettingsForm settings={settings.data} />;
}

function sellerOf(settings: SettingsDto): SellerIdentity {
  return Object.fromEntries(SELLER_INPUTS.map(({ field }) => [field, settings[field]])) as SellerIdentity;
}

function SettingsForm({ settings }: { settings: SettingsDto }) {
  const [email, setEmail] = useState(settings.email);
  const [notificationEmail, setNotificationEmail] = useState(settings.notificationEmail);
  const [autoRefresh, setAutoRefresh] = useState(settings.autoRefreshDashboard);
  const [notifications, setNotifications] = useState(settings.enableNotifications);
  const [privacyNotices, setPrivacyNotices] = useState(settings.privacyNotices);
  const [seller, setSeller] = useState<SellerIdentity>(() => sellerOf(settings));
  const [vatRate, setVatRate] = useState(String(settings.vatRatePercent));
  const [sellerErrors, setSellerErrors] = useState<Record<string, string>>({});
  const [apiKeyOpen, setApiKeyOpen] = useState(false);
  const [apiKey, setApiKey] = useState("");
  const update = useUpdateSettings();

  // After a save a field that still holds what was sent shows what the server stored (e.g. a
  // lower-cased email); a field edited while the save was in flight keeps the newer edit.
  const save = (changes: SettingsUpdate, onDone?: () => void) =>
    update.mutateAsync(changes).then(
      (saved) => {
        if (changes.email !== undefined)
          setEmail((current) => (current.trim() === changes.email ? saved.email : current));
        setSeller((current) => {
          const next = { ...current };
          for (const { field } of SELLER_INPUTS)
            if (changes[field] !== undefined && current[field].trim() === changes[field])
              next[field] = saved[field];
          return next;
        });
        if (changes.vatRatePercent !== undefined)
          setVatRate((current) =>
            Number(current) === changes.vatRatePercent ? String(saved.vatRatePercent) : current,
          );
        if (changes.notificationEmail !== undefined)
          setNotificationEmail((current) =>
            current.trim() === changes.notificationEmail ? saved.notificationEmail : current,
          );
        toast({ title: "Settings updated", description: "Your settings have been saved successfully" });
        onDone?.();
      },
      () =>
        toast({ title: "Update failed", description: "Failed to update settings", variant: "destructive" }),
    );

  // Only what changed is sent; with no change there is no call and no message.
  const onSaveSettings = (event?: FormEvent) => {
    event?.preventDefault();
    const changes: SettingsUpdate = {};
    if (email.trim() !== settings.email) changes.email = email.trim();
    if (notificationEmail.trim() !== settings.notificationEmail)
      changes.notificationEmail = notificationEmail.trim();
    if (apiKey.trim()) changes.nowPaymentsApiKey = apiKey.trim();
    if (autoRefresh !== settings.autoRefreshDashboard) changes.autoRefreshDashboard = autoRefresh;
    if (notifications !== settings.enableNotifications) changes.enableNotifications = notifications;
    if (privacyNotices !== settings.privacyNotices) changes.privacyNotices = privacyNotices;
    for (const { field } of SELLER_INPUTS)
      if (seller[field].trim() !== settings[field]) changes[field] = seller[field].trim();
    // An emptied field is no rate: Number("") would read as 0.
    if (vatRate.trim() !== String(settings.vatRatePercent))
      changes.vatRatePercent = vatRate.trim() === "" ? Number.NaN : Number(vatRate);
    // The seller's fields are checked here, beside them; the others as before, by the server.
    const checked = settingsUpdateSchema.safeParse(changes);
    const errors = Object.entries(checked.success ? {} : fieldErrors(checked.error)).filter(
      ([field]) => field === "vatRatePercent" || SELLER_INPUTS.some((input) => input.field === field),
    );
    setSellerErrors(Object.fromEntries(errors));
    if (errors.length > 0) return;
    if (Object.keys(changes).length === 0) return;
    void save(changes);
  };

  const closeApiKey = () => {
    setApiKeyOpen(false);
    setApiKey("");
  };

  return (
    <div className="grid max-w-3xl gap-6">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Account Settings</h2>
          </CardTitle>
          <CardDescription>Your sign-in, password and payment provider key.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <div className="grid gap-2">
            <Label htmlFor="settings-email">Admin Email</Label>
            <Input
              id="settings-email"
              type="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              aria-describedby="settings-email-help"
            />
            <p id="settings-email-help" className="text-sm text-muted-foreground">
              Used for admin login
            </p>
          </div>
          <Separator />
          <PasswordPanel />
          <Separator />
          <SecretKeyField
            id="settings-api-key"
            labels={{
              field: "NOWPayments API Key",
              update: "Update API Key",
              draft: "New API Key",
              save: "Save API Key",
            }}
            masked={settings.nowPaymentsApiKey}
            fromEnvironment={settings.nowPaymentsApiKeySource === "environment"}
            draft={apiKey}
            onDraft={setApiKey}
            open={apiKeyOpen}
            onOpenChange={setApiKeyOpen}
            onSave={(key) => void save({ nowPaymentsApiKey: key }, closeApiKey)}
            saving={update.isPending}
            beside={
              <Button
                variant="outline"
                onClick={() =>
                  toast({
                    title: "Security Notice",
                    description: "For security reasons, copying the API key is disabled",
                  })
                }
              >
                Copy
              </Button>
            }
          />
          <Separator />
          <div className="grid gap-3">
            <div className="flex items-center gap-2">
              <Checkbox
                id="settings-auto-refresh"
                checked={autoRefresh}
                onCheckedChange={(checked) => setAutoRefresh(checked === true)}
              />
              <Label htmlFor="settings-auto-refresh">Auto-refresh dashboard data</Label>
            </div>
            <div className="flex items-center gap-2">
              <Checkbox
                id="settings-notifications"
                checked={notifications}
                onCheckedChange={(checked) => setNotifications(checked === true)}
              />
              <Label htmlFor="settings-notifications">Enable notifications for new requests and sales</Label>
            </div>
          </div>
        </CardContent>
      </Card>

      <VerificationSettings settings={settings} />

      <Card>
        <form onSubmit={onSaveSettings} className="grid gap-6">
          <CardHeader>
            <CardTitle asChild>
              <h2>System Settings</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-2">
            <Label htmlFor="settings-notification-email">Email Notifications</Label>
            <Input
              id="settings-notification-email"
              type="email"
              value={notificationEmail}
              placeholder={settings.email}
              onChange={(event) => setNotificationEmail(event.target.value)}
              aria-describedby="settings-notification-email-help"
            />
            <p id="settings-notification-email-help" className="text-sm text-muted-foreground">
              Address to receive system notifications
            </p>
            <Separator className="my-4" />
            <h3 className="font-medium">Seller Identity</h3>
            <p className="text-sm text-muted-foreground">
              Named in privacy notices, statements and invoices. UK rows need all but the VAT number.
            </p>
            {SELLER_INPUTS.map(({ field, label, help, multiline }) => {
              const id = `settings-${field}`;
              const props = {
                id,
                value: seller[field],
                "aria-describedby": `${id}-help`,
                "aria-invalid": sellerErrors[field] ? true : undefined,
                onChange: (event: { target: { value: string } }) =>
                  setSeller((current) => ({ ...current, [field]: event.target.value })),
              };
              return (
                <div key={field} className="mt-2 grid gap-2">
                  <Label htmlFor={id}>{label}</Label>
                  {multiline ? <Textarea rows={3} {...props} /> : <Input {...props} />}
                  <p
                    id={`${id}-help`}
                    className={
                      sellerErrors[field] ? "text-sm text-destructive" : "text-sm text-muted-foreground"
                    }
                  >
                    {sellerErrors[field] ?? help}
                  </p>
                </div>
              );
            })}
            <div className="mt-2 grid gap-2">
              <div className="flex items-center gap-2">
                <Checkbox
                  id="settings-privacy-notices"
                  checked={privacyNotices}
                  aria-describedby="settings-privacy-notices-help"
                  onCheckedChange={(checked) => setPrivacyNotices(checked === true)}
                />
                <Label htmlFor="settings-privacy-notices">Send privacy notices to UK leads</Label>
              </div>
              <p
                id="settings-privacy-notices-help"
                className={privacyNotices ? "text-sm text-muted-foreground" : "text-sm text-destructive"}
              >
                {privacyNotices
                  ? "Each UK lead's person is mailed an Article 14 notice before the lead is first sold."
                  : "Warning: UK rows then sell without Article 14 notices, and the UK rows waiting for theirs go on sale when you save."}
              </p>
            </div>
            <div className="mt-2 grid gap-2">
              <Label htmlFor="settings-vatRatePercent">VAT Rate (%)</Label>
              <Input
                id="settings-vatRatePercent"
                type="number"
                inputMode="decimal"
                min={0}
                max={100}
                step={0.01}
                value={vatRate}
                aria-describedby="settings-vatRatePercent-help"
                aria-invalid={sellerErrors.vatRatePercent ? true : undefined}
                onChange={(event) => setVatRate(event.target.value)}
              />
              <p
                id="settings-vatRatePercent-help"
                className={
                  sellerErrors.vatRatePercent ? "text-sm text-destructive" : "text-sm text-muted-foreground"
                }
              >
                {sellerErrors.vatRatePercent ??
                  "Invoices show this VAT as included in the price; 0 for none. Buyers with a VAT ID from another country get reverse charge."}
              </p>
            </div>
          </CardContent>
          <CardFooter>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending && <Spinner size="sm" label="Saving" />}
              Save Settings
            </Button>
          </CardFooter>
        </form>
      </Card>

      <PhoneRegistersCard />
    </div>
  );
}
