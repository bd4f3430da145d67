"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Separator } from "@/components/ui/separator";
import { Spinner } from "@/components/ui/spinner";
import { toast } from "@/components/ui/use-toast";
import { useAdminSettings, useUpdateSettings } from "@/lib/client/use-admin";
import { PasswordPanel } from "@/components/admin/password-panel";
import { SecretKeyField } from "@/components/admin/secret-key-field";
import { VerificationSettings } from "@/components/admin/verification-settings";
import type { SettingsDto, SettingsUpdate } from "@/lib/schemas/admin";

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

function SettingsForm({ settings }: { settings: SettingsDto }) {
  const [email, setEmail] = useState(settings.email);
  const [notificationEmail, setNotificationEmail] = useState(settings.notificationEmail);
  const [autoRefresh, setAutoRefresh] = useState(settings.autoRefreshDashboard);
  const [notifications, setNotifications] = useState(settings.enableNotifications);
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
          </CardContent>
          <CardFooter>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending && <Spinner size="sm" label="Saving" />}
              Save Settings
            </Button>
          </CardFooter>
        </form>
      </Card>
    </div>
  );
}
